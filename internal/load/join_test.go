package load_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
)

// Two runs joined read as one: operations and errors added, windows one
// after the other, the second run's intervals after the first's, and the
// first message of an error kind kept.
func TestJoin(t *testing.T) {
	run := func(fail bool) *load.Result {
		cfg := load.DefaultConfig()
		cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval = 1, 40*time.Millisecond, 0, 10*time.Millisecond
		n := 0
		res, err := load.Run(context.Background(), cfg, []string{"op"}, func(context.Context, int, *rand.Rand) (load.Worker, error) {
			return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
				time.Sleep(100 * time.Microsecond)
				if n++; fail && n%10 == 1 { // the first op fails too: a busy machine may run few
					return load.Outcome{}, errors.New("boom")
				}
				return load.Outcome{}, nil
			}), nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(false), run(true)
	wantOps := a.Stats(0).Ops + b.Stats(0).Ops
	wantErrors := b.Stats(0).Errors
	wantElapsed := a.Elapsed + b.Elapsed
	first := a.Intervals[0][len(a.Intervals[0])-1].TS
	nA, nB := len(a.Intervals[0]), len(b.Intervals[0])
	a.Join(b)
	st := a.Stats(0)
	switch {
	case st.Ops != wantOps || st.Errors != wantErrors || wantErrors == 0:
		t.Errorf("joined: %d ops, %d errors; want %d and %d (> 0)", st.Ops, st.Errors, wantOps, wantErrors)
	case a.Elapsed != wantElapsed:
		t.Errorf("joined window %s, want %s", a.Elapsed, wantElapsed)
	case len(a.Intervals[0]) != nA+nB || len(a.Total) != nA+nB:
		t.Errorf("joined: %d intervals (%d total), want %d", len(a.Intervals[0]), len(a.Total), nA+nB)
	case a.Intervals[0][nA].TS <= first || a.Intervals[0][nA+nB-1].TS > wantElapsed.Seconds()+1e-9:
		t.Errorf("the second run's intervals do not follow the first's: %+v", a.Intervals[0])
	case len(a.ErrorSamples) != 1:
		t.Errorf("error samples %v, want the one kind", a.ErrorSamples)
	}
}
