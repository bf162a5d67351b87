package clients

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/load"
)

// TestStallShowsInP99 is the coordinated-omission check against a real
// server: one query in 25 sleeps 200 ms on the server, one connection
// serves every arrival and later arrivals queue behind the stall. Timed from
// their intended start, the queued arrivals make p99 show the stall;
// timed from when they were sent (service time), the median stays small.
// Thresholds are generous: this checks the method, not the machine.
func TestStallShowsInP99(t *testing.T) {
	srv := legacyServer(t)
	c, _ := Lookup("clickhouse-go-v1")
	ctx := context.Background()
	q := open(ctx, t, srv, c, query.Row, false)
	defer q.Close()
	n := 0
	spec := query.Spec{Name: "stall", SQL: "SELECT sleep(?)", Args: func(*rand.Rand) []any {
		n++ // one scheduler feeds one worker: no race
		if n%25 == 0 {
			return []any{0.2}
		}
		return []any{0.0}
	}}
	wl := query.NewWorkload(q, spec, false)
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Workers, cfg.MaxInFlight, cfg.Queue = 50, 1, 1, 1000
	cfg.Duration, cfg.Warmup, cfg.Interval = 3*time.Second, 0, 0
	res, err := load.Run(ctx, cfg, wl.Ops(), wl.NewWorker, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Stats(0)
	t.Logf("ops %d errors %d dropped %d p50 %s p99 %s service p50 %s", s.Ops, s.Errors, s.Dropped,
		time.Duration(s.Latency.P50), time.Duration(s.Latency.P99), time.Duration(s.Service.P50))
	if s.Errors > 0 || s.Ops < 140 {
		t.Fatalf("ops %d errors %d: want about 150 queries without errors", s.Ops, s.Errors)
	}
	if p99 := time.Duration(s.Latency.P99); p99 < 150*time.Millisecond {
		t.Errorf("p99 = %s, want at least 150ms: the 200ms stalls are hidden", p99)
	}
	if p50 := time.Duration(s.Service.P50); p50 > 100*time.Millisecond {
		t.Errorf("service p50 = %s, want well under the stall", p50)
	}
}

// TestShortfallIsReported asks for more than the server can serve: every
// query sleeps 50 ms, one is allowed in flight, 50/s are requested. The
// achieved rate must come out near 20/s and the rest be counted as
// dropped, not silently skipped.
func TestShortfallIsReported(t *testing.T) {
	srv := legacyServer(t)
	c, _ := Lookup("http")
	ctx := context.Background()
	q := open(ctx, t, srv, c, query.Row, false)
	defer q.Close()
	wl := query.NewWorkload(q, query.CustomSpec("SELECT sleep(0.05)", nil), false)
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Workers, cfg.MaxInFlight = 50, 1, 1
	cfg.Duration, cfg.Warmup, cfg.Interval = 2*time.Second, 0, 0
	res, err := load.Run(ctx, cfg, wl.Ops(), wl.NewWorker, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Stats(0)
	achieved := float64(s.Ops+s.Errors) / s.DurationS
	t.Logf("achieved %.1f/s of 50/s, dropped %d", achieved, s.Dropped)
	if achieved > 30 || s.Dropped < 20 {
		t.Errorf("achieved %.1f/s with %d dropped, want under 30/s and the shortfall counted as drops", achieved, s.Dropped)
	}
	if s.Ops+s.Errors+s.Dropped < 95 {
		t.Errorf("ops+errors+dropped = %d, want every one of the ~100 arrivals accounted for", s.Ops+s.Errors+s.Dropped)
	}
}
