package null_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/null"
	"github.com/dbmeter/dbmeter/internal/plan"
)

// The null target with a 10 ms delay and 10 operations in flight sustains
// exactly 1,000 operations a second: the capacity search must find it, and
// say that --max-in-flight, not the target's latency, bounded it.
func TestFindMaxRate(t *testing.T) {
	tests := []struct {
		name     string
		slo      string
		min, max float64
		limit    string
	}{
		{"max-in-flight bounds it", "p99<50ms", 980, 1010, "max-in-flight"},
		{"no rate meets an objective below the delay", "p99<5ms", 0, 0, "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := search(t, tt.slo, null.Config{Delay: 10 * time.Millisecond}, 10)
				a := c.Capacity[0]
				if a.MaxRate < tt.min || a.MaxRate > tt.max || a.Limit != tt.limit {
					t.Errorf("max_rate %g limited by %q, want %g to %g limited by %q (steps %v)", a.MaxRate, a.Limit, tt.min, tt.max, tt.limit, a.Steps)
				}
				if len(c.Runs) != len(a.Steps) {
					t.Errorf("%d runs for %d steps", len(c.Runs), len(a.Steps))
				}
				for _, r := range c.Runs {
					if r.Step == 0 || r.Verdict == nil {
						t.Errorf("run at %g/s has step %d verdict %v", r.Rate, r.Step, r.Verdict)
					}
				}
			})
		})
	}
}

// search runs a capacity search from 10/s against target with 1 s steps,
// maxInFlight arrivals at once (0: the default), under the objective slo.
func search(t *testing.T, slo string, target null.Config, maxInFlight int) plan.Collector {
	t.Helper()
	objective, err := capacity.ParseSLO(slo)
	if err != nil {
		t.Fatal(err)
	}
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = 10, time.Second, 100*time.Millisecond, 0
	if maxInFlight > 0 {
		cfg.MaxInFlight = maxInFlight
	}
	cfg.Sleep = time.Sleep // the fake clock moves only for Go's timers
	p, err := null.NewPlan(null.Options{Target: target, Load: cfg,
		Search: &capacity.Search{SLO: objective, MaxInFlight: cfg.MaxInFlight}, Params: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	var c plan.Collector
	// No rate meeting the objective is a failed search: an error, with the
	// answer (limit "none") still recorded.
	if err := plan.Execute(context.Background(), p, &c); err != nil && !errors.Is(err, capacity.ErrNoRate) {
		t.Fatal(err)
	} else if none := len(c.Capacity) == 1 && c.Capacity[0].Limit == "none"; none != (err != nil) {
		t.Fatalf("error %v with answer %+v: want ErrNoRate exactly when no rate met the objective", err, c.Capacity)
	}
	if len(c.Capacity) != 1 {
		t.Fatalf("%d capacity answers, want 1", len(c.Capacity))
	}
	return c
}

// A target with a queue (--concurrency 10) of 10 ms operations serves
// 1,000/s: below that evenly spaced arrivals never wait, above it the queue
// grows without end. A step of 1 s (plus its 100 ms warm-up) at (1+x) ×
// capacity ends with a wait of about x × 1.1 s, which stays under
// p99<50ms's 40 ms of room up to x ≈ 3.6%: the search must answer between
// the capacity and that, bounded by the objective, with no arrival dropped.
func TestFindMaxRateQueue(t *testing.T) {
	tests := []struct {
		name        string
		concurrency int
		min, max    float64
		limit       string
	}{
		{"ten slots of 10ms", 10, 1000, 1037, "objective"},
		{"two slots of 10ms", 2, 200, 207.4, "objective"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := search(t, "p99<50ms", null.Config{Delay: 10 * time.Millisecond, Concurrency: tt.concurrency}, 0)
				a := c.Capacity[0]
				if a.MaxRate < tt.min || a.MaxRate > tt.max || a.Limit != tt.limit {
					t.Errorf("max_rate %g limited by %q, want %g to %g limited by %q (steps %v)", a.MaxRate, a.Limit, tt.min, tt.max, tt.limit, a.Steps)
				}
				for _, r := range c.Runs {
					if r.Dropped != 0 {
						t.Errorf("run at %g/s dropped %d arrivals: a queue drops none", r.Rate, r.Dropped)
					}
				}
			})
		})
	}
}

// Operations beyond --concurrency wait for a slot, and the wait is in their
// latency: four at once through two slots of 10 ms take 10, 10, 20, 20 ms.
func TestConcurrencyQueues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		target := null.New(null.Config{Delay: 10 * time.Millisecond, Concurrency: 2}).WithSleep(time.Sleep)
		lat := make(chan time.Duration, 4)
		for range 4 {
			w, err := target.NewWorker(context.Background(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				start := time.Now()
				if _, err := w.Do(context.Background()); err != nil {
					t.Error(err)
				}
				lat <- time.Since(start)
			}()
		}
		var got []time.Duration
		for range 4 {
			got = append(got, <-lat)
		}
		slices.Sort(got)
		want := []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond}
		if !slices.Equal(got, want) {
			t.Errorf("latencies %v, want %v", got, want)
		}
	})
}

// The family API refuses what cannot run, without a command line.
func TestNewPlanValidates(t *testing.T) {
	t.Parallel()
	ok := load.DefaultConfig()
	bad := ok
	bad.Workers = 0
	tests := []struct {
		name string
		o    null.Options
		ok   bool
	}{
		{"defaults", null.Options{Load: ok}, true},
		{"stall without its period", null.Options{Target: null.Config{Stall: time.Millisecond}, Load: ok}, false},
		{"negative concurrency", null.Options{Target: null.Config{Concurrency: -1}, Load: ok}, false},
		{"no workers", null.Options{Load: bad}, false},
	}
	for _, tt := range tests {
		p, err := null.NewPlan(tt.o)
		if (err == nil) != tt.ok {
			t.Errorf("%s: error %v, want ok %v", tt.name, err, tt.ok)
		}
		if err == nil && (p.Family != "null" || len(p.Steps) != 1) {
			t.Errorf("%s: plan %+v, want one null step", tt.name, p)
		}
	}
}
