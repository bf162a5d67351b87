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

// The shards' parts number the items as one process would: each part
// starts where the lower shards' end, and together they cover all.
func TestShardPart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		total      int64
		count      int
		wantFirsts []int64
	}{
		{10, 3, []int64{0, 4, 7}},
		{2, 4, []int64{0, 1, 2, 2}},
		{9, 1, []int64{0}},
	}
	for _, tt := range tests {
		var firsts []int64
		next := int64(0)
		for i := range tt.count {
			sh := load.Shard{Index: i, Count: tt.count}
			first, n := sh.Part(tt.total)
			if first != next || n != sh.Split(tt.total) {
				t.Errorf("shard %d/%d of %d: Part = %d, %d; want %d, %d", i, tt.count, tt.total, first, n, next, sh.Split(tt.total))
			}
			firsts = append(firsts, first)
			next = first + n
		}
		if !slices.Equal(firsts, tt.wantFirsts) || next != tt.total {
			t.Errorf("Part(%d) over %d shards starts at %v and ends at %d, want %v and %d", tt.total, tt.count, firsts, next, tt.wantFirsts, tt.total)
		}
	}
}

// A pool of clients (pgbench's -c, open loop too) divides as closed loop's
// workers do; each client keeps its quota of a count, and the shards
// together run the whole test.
func TestConfigForPoolShard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                 string
		workers              int
		count                int64
		rate                 float64
		wantWorkers, wantMax []int
		wantCounts           []int64
		wantErr              bool
	}{
		{name: "closed, 3 clients x 10 over 2", workers: 3, count: 30, wantWorkers: []int{2, 1}, wantCounts: []int64{20, 10}},
		{name: "closed, uneven count", workers: 3, count: 10, wantWorkers: []int{2, 1}, wantCounts: []int64{7, 3}},
		{name: "open, 5 clients at 100/s", workers: 5, rate: 100, wantWorkers: []int{3, 2}, wantMax: []int{3, 2}},
		{name: "open, 4 clients x 5 at 100/s", workers: 4, count: 20, rate: 100, wantWorkers: []int{2, 2}, wantMax: []int{2, 2}, wantCounts: []int64{10, 10}},
		{name: "fewer clients than shards, open loop too", workers: 1, rate: 100, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := load.DefaultConfig()
			cfg.Workers, cfg.MaxInFlight, cfg.Count, cfg.Rate = tt.workers, tt.workers, tt.count, tt.rate
			if tt.count > 0 {
				cfg.Duration = 0
			}
			var total int64
			for i := range 2 {
				c, err := cfg.ForPoolShard(load.Shard{Index: i, Count: 2})
				if tt.wantErr {
					if err == nil {
						t.Fatalf("shard %d: accepted", i)
					}
					return
				}
				if err != nil {
					t.Fatalf("shard %d: %v", i, err)
				}
				if c.Workers != tt.wantWorkers[i] || c.Rate != tt.rate/2 {
					t.Errorf("shard %d: %d workers at %g/s, want %d at %g/s", i, c.Workers, c.Rate, tt.wantWorkers[i], tt.rate/2)
				}
				if tt.wantMax != nil && c.MaxInFlight != tt.wantMax[i] {
					t.Errorf("shard %d: MaxInFlight %d, want %d", i, c.MaxInFlight, tt.wantMax[i])
				}
				if tt.wantCounts != nil && c.Count != tt.wantCounts[i] {
					t.Errorf("shard %d: count %d, want %d", i, c.Count, tt.wantCounts[i])
				}
				total += c.Count
			}
			if total != tt.count {
				t.Errorf("the shards run %d in all, want %d", total, tt.count)
			}
		})
	}
}

// ShardSpec.Apply parses the shard and the start and says where the
// shard's workers start among the test's.
func TestShardSpecApply(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	cfg := load.DefaultConfig()
	cfg.Workers = 5
	got, first, err := load.ShardSpec{Shard: "1/2", StartAt: "+30s"}.Apply(cfg, now)
	if err != nil || first != 3 || got.Workers != 2 || !got.StartAt.Equal(now.Add(30*time.Second)) {
		t.Errorf("Apply(1/2, +30s) = %d workers from %d starting %s, %v; want 2 from 3 at %s", got.Workers, first, got.StartAt, err, now.Add(30*time.Second))
	}
	if _, first, err := (load.ShardSpec{}).Apply(cfg, now); err != nil || first != 0 {
		t.Errorf("an unsplit test: first %d, %v", first, err)
	}
	for _, bad := range []load.ShardSpec{{Shard: "2/2"}, {StartAt: "soon"}} {
		if _, _, err := bad.Apply(cfg, now); err == nil {
			t.Errorf("Apply(%+v) accepted", bad)
		}
	}
}
