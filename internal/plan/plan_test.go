package plan_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
)

type sink struct {
	runs    []result.Run
	watched []string
}

func (s *sink) Watcher(family, target, workload string, _ ...string) load.Watcher {
	s.watched = append(s.watched, family+":"+target+"/"+workload)
	return nil
}
func (s *sink) Add(runs ...result.Run)      { s.runs = append(s.runs, runs...) }
func (s *sink) AddCapacity(result.Capacity) {}

func step(target string, fail bool) plan.Step {
	return plan.Step{Target: target, Workload: "w", Run: func(ctx context.Context, r plan.Rep) ([]result.Run, error) {
		run := result.Run{Target: target, Repeat: r.N, Seed: r.Seed}
		if fail {
			return []result.Run{run}, errors.New("server gone")
		}
		return []result.Run{run}, nil
	}}
}

func TestExecute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		plan      plan.Plan
		wantRuns  []string // target:repeat:seed
		wantError bool
	}{
		{"repetitions get consecutive seeds", plan.Plan{Family: "null", Steps: []plan.Step{step("a", false), step("b", false)}, Repeat: 2, Seed: 7},
			[]string{"a:1:7", "a:2:8", "b:1:7", "b:2:8"}, false},
		{"a failed step keeps its run and stops the plan", plan.Plan{Family: "ch", Steps: []plan.Step{step("a", true), step("b", false)}, Repeat: 2, Seed: 1},
			[]string{"a:1:1"}, true},
		{"keep going runs the other steps", plan.Plan{Family: "kv", Steps: []plan.Step{step("a", true), step("b", false)}, Repeat: 2, Seed: 1, KeepGoing: true},
			[]string{"a:1:1", "b:1:1", "b:2:2"}, true},
		{"interleaved: every step once, then every step again", plan.Plan{Family: "kv", Steps: []plan.Step{step("a", false), step("b", false)}, Repeat: 3, Seed: 7, Interleave: true},
			[]string{"a:1:7", "b:1:7", "a:2:8", "b:2:8", "a:3:9", "b:3:9"}, false},
		{"interleaved: a failed step is not run again", plan.Plan{Family: "kv", Steps: []plan.Step{step("a", true), step("b", false)}, Repeat: 2, Seed: 1, Interleave: true, KeepGoing: true},
			[]string{"a:1:1", "b:1:1", "b:2:2"}, true},
		{"interleaved: a failed step stops the plan", plan.Plan{Family: "kv", Steps: []plan.Step{step("a", false), step("b", true)}, Repeat: 2, Seed: 1, Interleave: true},
			[]string{"a:1:1", "b:1:1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &sink{}
			err := plan.Execute(context.Background(), tt.plan, s)
			if (err != nil) != tt.wantError {
				t.Errorf("error %v, want error %v", err, tt.wantError)
			}
			var got []string
			for _, r := range s.runs {
				if r.Family != tt.plan.Family {
					t.Errorf("run family %q, want %q", r.Family, tt.plan.Family)
				}
				got = append(got, r.Target+":"+itoa(r.Repeat)+":"+itoa(int(r.Seed)))
			}
			if len(got) != len(tt.wantRuns) {
				t.Fatalf("runs %v, want %v", got, tt.wantRuns)
			}
			for i := range got {
				if got[i] != tt.wantRuns[i] {
					t.Errorf("runs %v, want %v", got, tt.wantRuns)
					break
				}
			}
		})
	}
}

func TestExecuteStopsOnCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	p := plan.Plan{Family: "null", Repeat: 5, Steps: []plan.Step{{Target: "a", Run: func(context.Context, plan.Rep) ([]result.Run, error) {
		calls++
		cancel()
		return nil, nil
	}}}}
	if err := plan.Execute(ctx, p, &sink{}); err != nil || calls != 1 {
		t.Errorf("err %v after %d calls, want nil after 1", err, calls)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestErrors(t *testing.T) {
	t.Parallel()
	a, b := errors.New("a"), errors.New("b")
	tests := []struct {
		name string
		err  error
		want []error
	}{
		{"none", nil, nil},
		{"one", a, []error{a}},
		{"joined", errors.Join(a, b), []error{a, b}},
	}
	for _, tt := range tests {
		if got := plan.Errors(tt.err); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Errors = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCross(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		sizes []int
		want  [][]int
	}{
		{"no knobs: one variant", nil, [][]int{{}}},
		{"one list", []int{3}, [][]int{{0}, {1}, {2}}},
		{"the first knob varies slowest", []int{2, 2}, [][]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}}},
		{"a single value adds nothing", []int{2, 1}, [][]int{{0, 0}, {1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plan.Cross(tt.sizes...); !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("Cross(%v) = %v, want %v", tt.sizes, got, tt.want)
			}
		})
	}
}
