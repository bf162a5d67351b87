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
	start := s.Start
	if start <= 0 {
		start = DefaultStart
	}
	floor := lowest
	var raised string
	if s.Step > 0 {
		floor = max(floor, float64(s.SLO.MinOps())/s.Step.Seconds())
		if floor > start {
			raised = fmt.Sprintf("the ramp started at %.4g/s, not %.4g/s: a %s step needs %d operations for the objective's percentile to mean something (a longer step starts lower)",
				floor, start, s.Step, s.SLO.MinOps())
			start = floor
		}
	}
	precision := s.Precision
	if precision <= 0 {
		precision = DefaultPrecision
	}
	var (
		all     []result.Run
		ans     = result.Capacity{SLO: s.SLO.Text, Limit: "objective", LatencyLimitNs: s.SLO.latencyLimit()}
		lastBad *result.Run
	)
	if raised != "" {
		ans.Warnings = append(ans.Warnings, raised)
	}
	try := func(rate float64, confirm bool) (bool, error) {
		runs, err := step(ctx, rate, confirm)
		if len(runs) == 0 {
			if err == nil {
				err = fmt.Errorf("step at %g/s measured nothing", rate)
			}
			return false, err
		}
		k := len(ans.Steps) + 1
		pass, reason := s.SLO.Check(&runs[0])
		for i := range runs {
			runs[i].Step = k
			runs[i].Verdict = &result.Verdict{Pass: pass, Reason: reason, Confirm: confirm}
		}
		ans.Steps = append(ans.Steps, k)
		all = append(all, runs...)
		if s.OnStep != nil {
			s.OnStep(runs)
		}
		if !pass {
			lastBad = &all[len(all)-len(runs)]
		}
		return pass, err
	}

	// lo passed and hi failed; probe tries a rate and moves one of them.
	// A failing step is run again before it bounds the search: on a
	// noisy machine one slow second fails a rate the target sustains,
	// and a bound once set is never tried again. When the two disagree,
	// a third step decides, and the answer says the steps contradicted
	// each other.
	lo, hi := 0.0, math.Inf(1)
	probe := func(rate float64) error {
		pass, err := try(rate, false)
		if err == nil && !pass && ctx.Err() == nil {
			if pass, err = try(rate, false); err == nil && pass && ctx.Err() == nil {
				ans.ContradictedRates = append(ans.ContradictedRates, rate)
				pass, err = try(rate, false)
			}
		}
		if pass {
			lo = rate
		} else {
			hi = rate
		}
		return err
	}
	var err error
	// Ramp up until a rate fails; if the first fails, go down until one
	// passes; then bisect.
	for rate := start; err == nil && math.IsInf(hi, 1) && ctx.Err() == nil; rate *= 2 {
		err = probe(rate)
	}
	for err == nil && lo == 0 && hi > floor && ctx.Err() == nil {
		err = probe(max(hi/4, floor))
	}
	for err == nil && lo > 0 && (hi-lo)/hi > precision && ctx.Err() == nil {
		err = probe((lo + hi) / 2)
	}
	if err != nil {
		return all, ans, err
	}
	ans.FirstFailingRate = hi
	if math.IsInf(hi, 1) {
		ans.FirstFailingRate = 0
	}
	if lo == 0 {
		ans.Limit = "none"
		why := ""
		if lastBad != nil && s.limitOf(lastBad) == "client" {
			why = fmt.Sprintf("; the last step failed on dbmeter's own schedule lag (p99 %s) or CPU, not on the target: the machine is too busy to measure this objective", time.Duration(lastBad.Lag.P99).Round(time.Millisecond/10))
		}
		return all, ans, fmt.Errorf("%w: no rate met %s; tried %s/s, down to the slowest whose step holds enough operations for the objective (longer steps go lower)%s", ErrNoRate, s.SLO.Text, triedRates(all), why)
	}
	ans.MaxRate = lo
	for range max(s.Confirm, 1) {
		if ctx.Err() != nil {
			break
		}
		pass, err := try(lo, true)
		if err != nil {
			return all, ans, err
		}
		if !pass {
			ans.Warnings = append(ans.Warnings, fmt.Sprintf("a confirmation step at %s/s failed (%s): the answer is at the edge of the objective", rateText(lo), all[len(all)-1].Verdict.Reason))
		}
	}
	if lastBad != nil {
		ans.Limit = s.limitOf(lastBad)
	}
	if n := len(ans.ContradictedRates); n > 0 {
		ans.Warnings = append(ans.Warnings, fmt.Sprintf("steps contradicted each other at %s/s (a rate failed, then passed when run again; a third step decided): the machine or the target is noisy, and the answer is less certain than the search's precision", joinRates(ans.ContradictedRates)))
	}
	return all, ans, nil
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
