package null_test

import (
	"context"
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
				slo, err := capacity.ParseSLO(tt.slo)
				if err != nil {
					t.Fatal(err)
				}
				cfg := load.DefaultConfig()
				cfg.Rate, cfg.MaxInFlight, cfg.Duration, cfg.Warmup, cfg.Interval = 10, 10, time.Second, 100*time.Millisecond, 0
				cfg.Sleep = time.Sleep // the fake clock moves only for Go's timers
				p, err := null.NewPlan(null.Options{Target: null.Config{Delay: 10 * time.Millisecond}, Load: cfg,
					Search: &capacity.Search{SLO: slo, MaxInFlight: cfg.MaxInFlight}, Params: map[string]string{}})
				if err != nil {
					t.Fatal(err)
				}
				var c plan.Collector
				if err := plan.Execute(context.Background(), p, &c); err != nil {
					t.Fatal(err)
				}
				if len(c.Capacity) != 1 {
					t.Fatalf("%d capacity answers, want 1", len(c.Capacity))
				}
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
