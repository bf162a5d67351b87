package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Search shapes a capacity search.
type Search struct {
	SLO SLO
	// Start is the first rate tried (ops/s); DefaultStart when 0.
	Start float64
	// Precision ends the bisection once the bracket is within this
	// fraction of its upper end; DefaultPrecision when 0.
	Precision float64
	// Confirm is how many times the answer is run again (--repeat), so it
	// carries its spread; at least 1.
	Confirm int
	// MaxInFlight is the operations dbmeter may keep in flight, to tell a
	// step bounded by it from one bounded by the target.
	MaxInFlight int
	// Step is each step's measured window. A percentile needs enough
	// operations to mean anything (p99 of 20 is the maximum), so no step
	// runs below the rate that gives Step the operations the objective
	// needs (MinOps).
	Step time.Duration
	// OnStep, if set, receives each step's runs as soon as it is judged.
	OnStep func(runs []result.Run)
}

// Defaults of a search.
const (
	DefaultStart     = 10.0
	DefaultPrecision = 0.02
	// lowest is the slowest rate tried before declaring that no rate meets
	// the objective.
	lowest = 0.1
)

// A StepFunc runs one open-loop step at rate and returns its runs (one per
// operation reported, the first being the one the objective reads).
type StepFunc func(ctx context.Context, rate float64, confirm bool) ([]result.Run, error)

// Find runs the search. It returns every run of every step, each with its
// Step and Verdict set, and the answer. A step that fails with an error
// ends the search with that error; the runs so far are returned.
func (s Search) Find(ctx context.Context, step StepFunc) ([]result.Run, result.Capacity, error) {
	start, floor, raised := s.startAndFloor()
	f := &finder{
		s: s, ctx: ctx, step: step, hi: math.Inf(1),
		ans: result.Capacity{SLO: s.SLO.Text, Limit: "objective", LatencyLimitNs: s.SLO.latencyLimit()},
	}
	if raised != "" {
		f.ans.Warnings = append(f.ans.Warnings, raised)
	}
	if err := f.bracket(start, floor, s.precision()); err != nil {
		return f.all, f.ans, err
	}
	f.ans.FirstFailingRate = f.hi
	if math.IsInf(f.hi, 1) {
		f.ans.FirstFailingRate = 0
	}
	if f.lo == 0 {
		f.ans.Limit = "none"
		return f.all, f.ans, f.noRate()
	}
	f.ans.MaxRate = f.lo
	if err := f.confirm(max(s.Confirm, 1)); err != nil {
		return f.all, f.ans, err
	}
	if f.lastBad != nil {
		f.ans.Limit = s.limitOf(f.lastBad)
	}
	if n := len(f.ans.ContradictedRates); n > 0 {
		f.ans.Warnings = append(f.ans.Warnings, fmt.Sprintf("steps contradicted each other at %s/s (a rate failed, then passed when run again; a third step decided): the machine or the target is noisy, and the answer is less certain than the search's precision", joinRates(f.ans.ContradictedRates)))
	}
	return f.all, f.ans, nil
}

// startAndFloor gives the first rate tried and the slowest one. A step
// needs enough operations for the objective's percentile, so the floor
// rises with a short step, and the start with it; raised says so when it
// moved the start.
func (s Search) startAndFloor() (start, floor float64, raised string) {
	start = s.Start
	if start <= 0 {
		start = DefaultStart
	}
	floor = lowest
	if s.Step > 0 {
		floor = max(floor, float64(s.SLO.MinOps())/s.Step.Seconds())
		if floor > start {
			raised = fmt.Sprintf("the ramp started at %.4g/s, not %.4g/s: a %s step needs %d operations for the objective's percentile to mean something (a longer step starts lower)",
				floor, start, s.Step, s.SLO.MinOps())
			start = floor
		}
	}
	return start, floor, raised
}

func (s Search) precision() float64 {
	if s.Precision <= 0 {
		return DefaultPrecision
	}
	return s.Precision
}

// finder is one search under way: the runs so far, the answer being
// built, and the bracket, lo passed and hi failed.
type finder struct {
	s       Search
	ctx     context.Context
	step    StepFunc
	all     []result.Run
	ans     result.Capacity
	lastBad *result.Run
	lo, hi  float64
}

// try runs one step at rate, judges it against the objective and records
// its runs.
func (f *finder) try(rate float64, confirm bool) (bool, error) {
	runs, err := f.step(f.ctx, rate, confirm)
	if len(runs) == 0 {
		if err == nil {
			err = fmt.Errorf("step at %g/s measured nothing", rate)
		}
		return false, err
	}
	k := len(f.ans.Steps) + 1
	pass, reason := f.s.SLO.Check(&runs[0])
	for i := range runs {
		runs[i].Step = k
		runs[i].Verdict = &result.Verdict{Pass: pass, Reason: reason, Confirm: confirm}
	}
	f.ans.Steps = append(f.ans.Steps, k)
	f.all = append(f.all, runs...)
	if f.s.OnStep != nil {
		f.s.OnStep(runs)
	}
	if !pass {
		f.lastBad = &f.all[len(f.all)-len(runs)]
	}
	return pass, err
}

// probe tries a rate and moves one end of the bracket. A failing step is
// run again before it bounds the search: on a noisy machine one slow
// second fails a rate the target sustains, and a bound once set is never
// tried again. When the two disagree, a third step decides, and the
// answer says the steps contradicted each other.
func (f *finder) probe(rate float64) error {
	pass, err := f.try(rate, false)
	if err == nil && !pass && f.ctx.Err() == nil {
		if pass, err = f.try(rate, false); err == nil && pass && f.ctx.Err() == nil {
			f.ans.ContradictedRates = append(f.ans.ContradictedRates, rate)
			pass, err = f.try(rate, false)
		}
	}
	if pass {
		f.lo = rate
	} else {
		f.hi = rate
	}
	return err
}

// bracket ramps up until a rate fails; if the first fails, it goes down
// until one passes (no lower than floor); then it bisects until the
// bracket is within precision.
func (f *finder) bracket(start, floor, precision float64) error {
	var err error
	for rate := start; err == nil && math.IsInf(f.hi, 1) && f.ctx.Err() == nil; rate *= 2 {
		err = f.probe(rate)
	}
	for err == nil && f.lo == 0 && f.hi > floor && f.ctx.Err() == nil {
		err = f.probe(max(f.hi/4, floor))
	}
	for err == nil && f.lo > 0 && (f.hi-f.lo)/f.hi > precision && f.ctx.Err() == nil {
		err = f.probe((f.lo + f.hi) / 2)
	}
	return err
}

// noRate is the error of a search where no rate met the objective: what
// was tried, and whether dbmeter itself, not the target, made it fail.
func (f *finder) noRate() error {
	why := ""
	if f.lastBad != nil && f.s.limitOf(f.lastBad) == "client" {
		why = fmt.Sprintf("; the last step failed on dbmeter's own schedule lag (p99 %s) or CPU, not on the target: the machine is too busy to measure this objective", time.Duration(f.lastBad.Lag.P99).Round(time.Millisecond/10))
	}
	return fmt.Errorf("%w: no rate met %s; tried %s/s, down to the slowest whose step holds enough operations for the objective (longer steps go lower)%s", ErrNoRate, f.s.SLO.Text, triedRates(f.all), why)
}

// confirm runs the answer n more times so it carries its spread; a failing
// confirmation is a warning that the answer sits at the objective's edge.
func (f *finder) confirm(n int) error {
	for range n {
		if f.ctx.Err() != nil {
			return nil
		}
		pass, err := f.try(f.lo, true)
		if err != nil {
			return err
		}
		if !pass {
			f.ans.Warnings = append(f.ans.Warnings, fmt.Sprintf("a confirmation step at %s/s failed (%s): the answer is at the edge of the objective", rateText(f.lo), f.all[len(f.all)-1].Verdict.Reason))
		}
	}
	return nil
}

// ErrNoRate says a search found no rate that met its objective: a failed
// search, not an answer of zero.
var ErrNoRate = errors.New("capacity search failed")

// triedRates lists the distinct rates of runs, in the order first tried.
func triedRates(runs []result.Run) string {
	var rates []float64
	for _, r := range runs {
		if !slices.Contains(rates, r.Rate) {
			rates = append(rates, r.Rate)
		}
	}
	return joinRates(rates)
}

func joinRates(rates []float64) string {
	s := make([]string, len(rates))
	for i, r := range rates {
		s[i] = rateText(r)
	}
	return strings.Join(s, ", ")
}

// latencyLimit is the tightest latency bound, in ns; 0 when there is none.
func (s SLO) latencyLimit() int64 {
	var l float64
	for _, o := range s.Objectives {
		if o.Metric != "errors" && (l == 0 || o.Limit < l) {
			l = o.Limit
		}
	}
	return int64(l)
}

// limitOf says what made a failing step fail: dbmeter itself (its CPU, or
// its schedule lag above a tenth of the tightest latency objective), the
// operations it may keep in flight, or the target.
func (s Search) limitOf(run *result.Run) string {
	tightest := math.Inf(1)
	if l := s.SLO.latencyLimit(); l > 0 {
		tightest = float64(l)
	}
	switch {
	case run.Client.CPUUtil > 0.8, float64(run.Lag.P99) > tightest/10:
		return "client"
	case run.Dropped > 0 && s.MaxInFlight > 0:
		return "max-in-flight"
	}
	return "objective"
}

// rateText prints a rate whole from 10/s up, to three digits below.
func rateText(r float64) string {
	if r >= 10 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.3g", r)
}
