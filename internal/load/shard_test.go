package load_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
)

func TestShardSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		total int64
		count int
		want  []int64
	}{
		{10, 3, []int64{4, 3, 3}},
		{2, 4, []int64{1, 1, 0, 0}},
		{9, 1, []int64{9}},
	}
	for _, tt := range tests {
		var got []int64
		for i := range tt.count {
			got = append(got, load.Shard{Index: i, Count: tt.count}.Split(tt.total))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Split(%d) over %d shards = %v, want %v", tt.total, tt.count, got, tt.want)
		}
	}
	if got := (load.Shard{}).Split(7); got != 7 {
		t.Errorf("an unsharded run keeps its total: got %d", got)
	}
}

// Two shards at half the rate, started at a common time, offer together
// one evenly spaced stream: shard 1's arrivals fall halfway between shard
// 0's. Each shard draws its own random streams.
func TestShardsInterleave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		startAt := time.Now().Add(time.Second)
		var mu sync.Mutex
		var starts []time.Duration
		seeds := map[int]uint64{}
		newWorker := func(shard int) load.NewWorker {
			return func(_ context.Context, id int, rng *rand.Rand) (load.Worker, error) {
				if id == 0 {
					mu.Lock()
					seeds[shard] = rng.Uint64()
					mu.Unlock()
				}
				return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
					mu.Lock()
					starts = append(starts, time.Since(startAt))
					mu.Unlock()
					return load.Outcome{}, nil
				}), nil
			}
		}
		var wg sync.WaitGroup
		for i := range 2 {
			cfg := load.DefaultConfig()
			cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = 50, time.Second, 0, 0
			cfg.Shard, cfg.StartAt, cfg.Sleep = load.Shard{Index: i, Count: 2}, startAt, time.Sleep
			wg.Go(func() {
				res, err := load.Run(context.Background(), cfg, []string{"op"}, newWorker(i), nil)
				if err != nil {
					t.Error(err)
					return
				}
				if res.StartOffset != 0 || res.Set[0].Ops != 50 {
					t.Errorf("shard %d: started %s late, %d ops; want on time, 50 ops", i, res.StartOffset, res.Set[0].Ops)
				}
			})
		}
		wg.Wait()
		slices.Sort(starts)
		for k, s := range starts {
			if want := time.Duration(k) * 10 * time.Millisecond; s != want {
				t.Fatalf("arrival %d at %s, want %s (every 10ms from the common start)", k, s, want)
			}
		}
		if seeds[0] == seeds[1] {
			t.Errorf("both shards drew the same random stream")
		}
	})
}

// A run that begins after the common start (the second run of a command)
// starts at once, owing no arrival from before it, and says how late it is.
func TestStartAtPassedStartsNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := load.DefaultConfig()
		cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.MaxInFlight = 100, time.Second, 0, 0, 1
		cfg.StartAt, cfg.Sleep = time.Now().Add(-5*time.Second), time.Sleep
		newWorker := func(context.Context, int, *rand.Rand) (load.Worker, error) {
			return load.WorkerFunc(func(context.Context) (load.Outcome, error) { return load.Outcome{}, nil }), nil
		}
		res, err := load.Run(context.Background(), cfg, []string{"op"}, newWorker, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.StartOffset != 5*time.Second || res.Dropped != 0 || res.Set[0].Ops != 100 {
			t.Errorf("offset %s, %d dropped, %d ops; want 5s, 0, 100", res.StartOffset, res.Dropped, res.Set[0].Ops)
		}
	})
}

func TestConfigForShard(t *testing.T) {
	t.Parallel()
	closed := load.DefaultConfig()
	closed.Workers, closed.Duration, closed.Count = 5, 0, 100
	open := load.DefaultConfig()
	open.Rate = 1000
	sh := load.Shard{Index: 1, Count: 2}
	if c, err := closed.ForShard(sh); err != nil || c.Workers != 2 || c.Count != 50 {
		t.Errorf("closed loop, 5 workers and 100 ops: shard 1/2 got %d workers, %d ops, %v; want 2, 50", c.Workers, c.Count, err)
	}
	if c, err := open.ForShard(sh); err != nil || c.Workers != 1 || c.Rate != 500 {
		t.Errorf("open loop at 1000/s, 1 worker: shard 1/2 got %d workers at %g/s, %v; want 1 at 500/s", c.Workers, c.Rate, err)
	}
	one := load.DefaultConfig()
	if _, err := one.ForShard(sh); err == nil {
		t.Error("a closed loop of 1 worker split in 2 shards was accepted")
	}
}
