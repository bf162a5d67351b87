package cli

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
)

// searchFlags are the capacity-search flags of the open-loop families.
type searchFlags struct {
	find      bool
	slo       string
	step      time.Duration
	precision float64
	fs        *pflag.FlagSet
}

// bind adds the flags to fs; rf, when not nil, learns that a search makes
// the run open loop.
func (f *searchFlags) bind(fs *pflag.FlagSet, rf *runFlags) {
	f.fs = fs
	if rf != nil {
		rf.search = f
	}
	fs.BoolVar(&f.find, "find-max-rate", false, "find the highest open-loop rate that meets --slo: ramp from the rate given (or 10/s), bisect, confirm")
	fs.StringVar(&f.slo, "slo", "", "objective of --find-max-rate, e.g. p99<15ms or p99<15ms,p999<50ms,errors<0.1% (no drops is always part of it)")
	fs.DurationVar(&f.step, "step-duration", 10*time.Second, "--find-max-rate: measured window of each step (each has its own warm-up)")
	fs.Float64Var(&f.precision, "precision", capacity.DefaultPrecision, "--find-max-rate: stop bisecting when the bracket is within this fraction")
}

// search returns the capacity search the flags ask for, or nil, and sets
// cfg's window to one step. rateFlag is the family's name for the rate.
func (f *searchFlags) search(cfg *load.Config, rateFlag string) (*capacity.Search, error) {
	changed := func(n string) bool { return f.fs.Lookup(n) != nil && f.fs.Changed(n) }
	if !f.find {
		for _, n := range []string{"slo", "step-duration", "precision"} {
			if changed(n) {
				return nil, usagef("--%s needs --find-max-rate", n)
			}
		}
		return nil, nil
	}
	if f.slo == "" {
		return nil, usagef("--find-max-rate needs --slo, e.g. --slo 'p99<15ms'")
	}
	slo, err := capacity.ParseSLO(f.slo)
	if err != nil {
		return nil, usagef("--slo: %v", err)
	}
	switch {
	case f.step <= 0:
		return nil, usagef("--step-duration must be positive, got %s", f.step)
	case f.precision <= 0 || f.precision >= 1:
		return nil, usagef("--precision must be between 0 and 1, got %g", f.precision)
	case changed("count"):
		return nil, usagef("--find-max-rate runs timed steps: drop --count")
	}
	s := &capacity.Search{SLO: slo, Start: cfg.Rate, Precision: f.precision, MaxInFlight: cfg.MaxInFlight, Step: f.step}
	if !changed(rateFlag) {
		s.Start = capacity.DefaultStart
	}
	cfg.Rate = s.Start
	cfg.Duration, cfg.Count = f.step, 0
	return s, nil
}
