// Package plan walks a family's list of runs: every configuration a
// command asked for, each repeated with its own seed, with the result
// document checkpointed after every run. Families turn their options into a
// Plan; the CLI gives Execute a Sink for progress, metrics and output. No
// family repeats, seeds or checkpoints runs itself.
package plan

import (
	"context"
	"errors"
	"fmt"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// A Step is one configuration of a plan: a target × workload × parameters.
type Step struct {
	// Target and Workload label the step's progress and live metrics.
	Target, Workload string
	// Ops names the operations of the step's load.Ticks, for live metrics;
	// nil means one operation, the workload.
	Ops []string
	// Run measures one repetition with the given seed. It returns what it
	// measured even when it also returns an error: a run that failed at its
	// end (a server gone, a count that could not be taken) is kept, marked
	// with the reason in its warnings. Run sets each run's Repeat and Seed
	// from rep and seed (load.Result.Fill does).
	Run func(ctx context.Context, r Rep) ([]result.Run, error)
}

// Rep is what one repetition of a step gets.
type Rep struct {
	N    int    // 1-based repetition
	Seed uint64 // the plan's seed + N − 1
	// Watch watches the step's load.Run (labelled with its target and
	// workload); nil when nobody watches.
	Watch load.Watcher
	// WatchAs returns the watcher for a load.Run of the step that is
	// labelled with another workload (a step that runs several workloads
	// on one target, as a K/V engine does).
	WatchAs func(workload string, ops ...string) load.Watcher
	// Rate, when not 0, is the open-loop rate to run at instead of the
	// configured one: a step of a capacity search. A step that cannot run
	// open loop must refuse a plan with a Search.
	Rate float64
}

// Plan is the runs of one command.
type Plan struct {
	Family string
	Steps  []Step
	Repeat int    // repetitions of every step; 0 counts as 1
	Seed   uint64 // seed of the first repetition
	// KeepGoing runs the remaining steps after one fails (a broken engine
	// must not stop a K/V matrix); otherwise the first failure ends the plan.
	KeepGoing bool
	// Interleave runs every step once, then every step again, Repeat
	// times, instead of each step's repetitions back to back (a capacity
	// search's confirmations stay back to back): the
	// repetitions of a step then see the machine at moments far apart, so
	// their spread shows a load that comes and goes over the run, not only
	// within a second. A step that failed is not run again.
	Interleave bool
	// Search, when set, makes every step a capacity search: the step runs
	// at the rates the search chooses (Rep.Rate), and Repeat repeats the
	// confirmation at the answer.
	Search *capacity.Search
}

// A Sink receives a plan's runs as they finish, and the answers of
// capacity searches. Watcher may return nil.
type Sink interface {
	Watcher(family, target, workload string, ops ...string) load.Watcher
	Add(runs ...result.Run)
	AddCapacity(c result.Capacity)
}

// Rounds is a Sink that is told when an interleaved plan starts its round
// n (n ≥ 2), between the rounds: the sink takes the machine reference.
type Rounds interface {
	BetweenRounds(n int)
}

// Execute runs every step Repeat times, in order, until ctx is cancelled.
// Every run a step returns reaches sink, even from a failed step. The error
// joins the steps' errors; cancellation is not an error (the runs say they
// were interrupted).
func Execute(ctx context.Context, p Plan, sink Sink) error {
	var errs []error
	if p.Search != nil {
		for _, st := range p.Steps {
			if err := search(ctx, p, st, repOf(p, st, sink), sink); err != nil {
				errs = append(errs, fmt.Errorf("%s/%s: %w", st.Target, st.Workload, err))
				if !p.KeepGoing {
					return errors.Join(errs...)
				}
			}
		}
		return errors.Join(errs...)
	}
	failed := make([]bool, len(p.Steps))
	for _, at := range p.order() {
		if failed[at.step] || ctx.Err() != nil {
			continue
		}
		if r, ok := sink.(Rounds); ok && p.Interleave && at.step == 0 && at.n > 1 {
			r.BetweenRounds(at.n)
		}
		st := p.Steps[at.step]
		runs, err := st.Run(ctx, repOf(p, st, sink)(at.n))
		setFamily(runs, p.Family)
		sink.Add(runs...)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s/%s: %w", st.Target, st.Workload, err))
			if !p.KeepGoing {
				return errors.Join(errs...)
			}
			failed[at.step] = true // the next repetitions would fail the same way
		}
	}
	return errors.Join(errs...)
}

// stepRep is repetition n of step number step.
type stepRep struct{ step, n int }

// order is the order the plan's repetitions run in: each step's back to
// back, or with Interleave every step once per repetition.
func (p Plan) order() []stepRep {
	repeat := max(p.Repeat, 1)
	var out []stepRep
	for i := range len(p.Steps) * repeat {
		if p.Interleave {
			out = append(out, stepRep{step: i % len(p.Steps), n: i/len(p.Steps) + 1})
		} else {
			out = append(out, stepRep{step: i / repeat, n: i%repeat + 1})
		}
	}
	return out
}

// repOf returns the repetitions of step st.
func repOf(p Plan, st Step, sink Sink) func(n int) Rep {
	return func(n int) Rep {
		return Rep{N: n, Seed: p.Seed + uint64(n-1), Watch: sink.Watcher(p.Family, st.Target, st.Workload, st.Ops...),
			WatchAs: func(workload string, ops ...string) load.Watcher {
				return sink.Watcher(p.Family, st.Target, workload, ops...)
			}}
	}
}

// Errors splits Execute's error into its steps' errors, so that each can be
// reported on a line of its own and counted.
func Errors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func setFamily(runs []result.Run, family string) {
	for i := range runs {
		runs[i].Family = family
	}
}

// search runs one step as a capacity search: each search step is an
// ordinary run (repetition 1, or 1… for the confirmations), added to the
// sink as soon as it is judged, and the answer follows them.
func search(ctx context.Context, p Plan, st Step, rep func(int) Rep, sink Sink) error {
	s := *p.Search
	s.Confirm = max(p.Repeat, 1)
	s.OnStep = func(runs []result.Run) {
		setFamily(runs, p.Family)
		sink.Add(runs...)
	}
	confirmations := 0
	runs, answer, err := s.Find(ctx, func(ctx context.Context, rate float64, confirm bool) ([]result.Run, error) {
		n := 1
		if confirm {
			confirmations++
			n = confirmations
		}
		r := rep(n)
		r.Rate = rate
		return st.Run(ctx, r)
	})
	answer.Family, answer.Target, answer.Workload = p.Family, st.Target, st.Workload
	if len(runs) > 0 {
		answer.Target, answer.Workload = runs[0].Target, runs[0].Workload
		answer.Params = runs[0].Params
	}
	if len(answer.Steps) > 0 {
		sink.AddCapacity(answer)
	}
	return err
}

// Collector is a Sink that keeps the runs and watches nothing: what a
// program or a test that drives a family directly needs.
type Collector struct {
	Runs     []result.Run
	Capacity []result.Capacity
}

// Watcher implements Sink.
func (*Collector) Watcher(string, string, string, ...string) load.Watcher { return nil }

// Add implements Sink.
func (c *Collector) Add(runs ...result.Run) { c.Runs = append(c.Runs, runs...) }

// AddCapacity implements Sink.
func (c *Collector) AddCapacity(a result.Capacity) { c.Capacity = append(c.Capacity, a) }
