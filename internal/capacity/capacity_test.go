package capacity

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

func TestParseSLO(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []Objective
		wantErr bool
	}{
		{"p99<15ms", []Objective{{"p99", 15e6}}, false},
		{"p99<15ms, p99.9<50ms,errors<0.1%", []Objective{{"p99", 15e6}, {"p999", 50e6}, {"errors", 0.001}}, false},
		{"max<1s", []Objective{{"max", 1e9}}, false},
		{"p99>15ms", nil, true},
		{"p98<15ms", nil, true},
		{"p99<fast", nil, true},
		{"errors<0.1", nil, true}, // a share needs its %
		{"", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseSLO(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseSLO(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if len(got.Objectives) != len(tt.want) {
			t.Errorf("ParseSLO(%q) = %v, want %v", tt.in, got.Objectives, tt.want)
			continue
		}
		for i := range tt.want {
			if got.Objectives[i] != tt.want[i] {
				t.Errorf("ParseSLO(%q)[%d] = %v, want %v", tt.in, i, got.Objectives[i], tt.want[i])
			}
		}
	}
}

// model is a target whose p99 grows with the offered rate and which drops
// arrivals past its capacity.
func model(capacity float64, p99 func(rate float64) time.Duration) StepFunc {
	return func(_ context.Context, rate float64, _ bool) ([]result.Run, error) {
		r := result.Run{Rate: rate}
		r.Ops = 1 + int64(min(rate, capacity))
		r.Dropped = int64(math.Max(0, rate-capacity))
		r.Latency.P99 = int64(p99(rate))
		return []result.Run{r}, nil
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	slo, _ := ParseSLO("p99<15ms")
	tests := []struct {
		name     string
		step     StepFunc
		min, max float64
		limit    string
		window   time.Duration // each step's window; 0: no floor
	}{
		{"latency knee at 3,000/s", model(1e9, func(r float64) time.Duration { return time.Duration(r * 5e3) }), 2940, 3000, "objective", 0},
		{"drops past 1,000/s", model(1000, func(float64) time.Duration { return time.Millisecond }), 980, 1000, "max-in-flight", 0},
		{"nothing meets it", model(1e9, func(float64) time.Duration { return time.Second }), 0, 0, "none", 0},
		{"only slow rates meet it", model(1e9, func(r float64) time.Duration { return time.Duration(r * 1e7) }), 1.47, 1.5, "objective", 0},
		{"a late dbmeter is not the target's limit", func(ctx context.Context, rate float64, c bool) ([]result.Run, error) {
			runs, err := model(1e9, func(r float64) time.Duration { return time.Duration(r * 5e3) })(ctx, rate, c)
			runs[0].Lag.P99 = int64(rate * 1e3) // the schedule lag grows with the rate: 3 ms at 3,000/s
			return runs, err
		}, 2940, 3000, "client", 0},
		{"a p99 of too few operations is not tried", model(1e9, func(r float64) time.Duration { return time.Duration(r * 1e7) }), 0, 0, "none", 10 * time.Second},
		{"a short step starts the ramp higher, and says so", model(1e9, func(r float64) time.Duration { return time.Duration(r * 5e3) }), 2940, 3000, "objective", time.Second},
	}
	for _, tt := range tests {
		s := Search{SLO: slo, MaxInFlight: 10, Confirm: 2, Step: tt.window}
		runs, ans, err := s.Find(context.Background(), tt.step)
		// No rate meeting the objective is a failed search, naming the
		// rates it tried.
		if none := tt.limit == "none"; none != errors.Is(err, ErrNoRate) || (none && !strings.Contains(err.Error(), "tried 10")) {
			t.Fatalf("%s: error %v, want ErrNoRate listing the rates tried exactly when no rate met the objective", tt.name, err)
		} else if err != nil && !none {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if ans.MaxRate < tt.min || ans.MaxRate > tt.max || ans.Limit != tt.limit {
			t.Errorf("%s: max rate %g bounded by %q, want %g to %g bounded by %q", tt.name, ans.MaxRate, ans.Limit, tt.min, tt.max, tt.limit)
		}
		if tt.limit != "none" {
			if ans.FirstFailingRate <= ans.MaxRate || (ans.FirstFailingRate-ans.MaxRate)/ans.FirstFailingRate > DefaultPrecision {
				t.Errorf("%s: bracket %g..%g wider than %g", tt.name, ans.MaxRate, ans.FirstFailingRate, DefaultPrecision)
			}
			if last := runs[len(runs)-1]; !last.Verdict.Confirm || last.Rate != ans.MaxRate || !runs[len(runs)-2].Verdict.Confirm {
				t.Errorf("%s: the last two steps must confirm the answer: %+v", tt.name, last.Verdict)
			}
		}
		for i, r := range runs {
			if r.Step != i+1 {
				t.Errorf("%s: run %d has step %d", tt.name, i, r.Step)
			}
		}
		// A floor above the first rate is said, not applied silently.
		raised := slices.ContainsFunc(ans.Warnings, func(w string) bool {
			return strings.HasPrefix(w, "the ramp started at 100/s, not 10/s: a 1s step needs 100 operations")
		})
		if raised != (tt.window == time.Second) {
			t.Errorf("%s: warnings %q; want the raised start said exactly when a step's window forces it", tt.name, ans.Warnings)
		}
	}
}

// noisy is a target that sustains capacity/s with a p99 of 1 ms, except
// that the steps numbered in spikes (1-based, as they are called) meet a
// slow second of the machine: a p99 of a second, whatever the rate.
func noisy(capacity float64, spikes ...int) StepFunc {
	n := 0
	return func(_ context.Context, rate float64, _ bool) ([]result.Run, error) {
		n++
		r := result.Run{Rate: rate}
		r.Ops = 1 + int64(min(rate, capacity))
		r.Latency.P99 = int64(time.Millisecond)
		if rate > capacity {
			r.Latency.P99 = int64(time.Second)
		}
		if slices.Contains(spikes, n) {
			r.Latency.P99 = int64(time.Second)
		}
		return []result.Run{r}, nil
	}
}

// A failing step is run again before it bounds the search; when the retry
// passes, a third step decides, and the answer says the steps contradicted
// each other. Without the retry, the spike at 640/s (step 7) would have
// made the answer about 320/s.
func TestFindRetriesAFailingStep(t *testing.T) {
	t.Parallel()
	slo, _ := ParseSLO("p99<15ms")
	tests := []struct {
		name         string
		spikes       []int
		contradicted []float64
		stepsAt640   int
	}{
		{name: "quiet", stepsAt640: 1},
		// Steps 1–7 ramp 10…640/s; 7 fails, 8 passes, 9 decides.
		{name: "one spike at 640/s", spikes: []int{7}, contradicted: []float64{640}, stepsAt640: 3},
		// Both the step and its retry fail: the bound holds, at 640/s.
		{name: "two spikes at 640/s", spikes: []int{7, 8}, stepsAt640: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Search{SLO: slo, Confirm: 1}
			runs, ans, err := s.Find(context.Background(), noisy(1000, tt.spikes...))
			if err != nil {
				t.Fatal(err)
			}
			at640 := 0
			for _, r := range runs {
				if r.Rate == 640 {
					at640++
				}
			}
			if at640 != tt.stepsAt640 {
				t.Errorf("%d steps at 640/s, want %d", at640, tt.stepsAt640)
			}
			if !slices.Equal(ans.ContradictedRates, tt.contradicted) {
				t.Errorf("contradicted at %v, want %v", ans.ContradictedRates, tt.contradicted)
			}
			said := slices.ContainsFunc(ans.Warnings, func(w string) bool { return strings.HasPrefix(w, "steps contradicted each other at 640/s") })
			if said != (len(tt.contradicted) > 0) {
				t.Errorf("warnings %q: the contradiction must be said exactly when steps disagreed", ans.Warnings)
			}
			want := 1000.0
			if len(tt.spikes) == 2 {
				want = 640 // two slow seconds in a row are a bound
			}
			if ans.MaxRate < want*(1-DefaultPrecision) || ans.MaxRate > want {
				t.Errorf("answer %g/s, want within %g%% under %g/s", ans.MaxRate, 100*DefaultPrecision, want)
			}
		})
	}
}
