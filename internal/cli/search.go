package cli

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
)

// searchFlags are the capacity-search flags of the open-loop families.
type searchFlags struct {
	o  capacity.Options
	fs *pflag.FlagSet
}

// bind adds the flags to fs; rf, when not nil, learns that a search makes
// the run open loop.
func (f *searchFlags) bind(fs *pflag.FlagSet, rf *runFlags) {
	f.fs = fs
	if rf != nil {
		rf.search = f
	}
	fs.BoolVar(&f.o.Find, "find-max-rate", false, "find the highest open-loop rate that meets --slo: ramp from the rate given (or 10/s, but not below the rate that gives a step 100 operations, 1,000 for p999), bisect, confirm")
	fs.StringVar(&f.o.SLO, "slo", "", "objective of --find-max-rate, e.g. p99<15ms or p99<15ms,p999<50ms,errors<0.1% (no drops is always part of it)")
	fs.DurationVar(&f.o.Step, "step-duration", 10*time.Second, "--find-max-rate: measured window of each step (each has its own warm-up)")
	fs.Float64Var(&f.o.Precision, "precision", capacity.DefaultPrecision, "--find-max-rate: stop bisecting when the bracket is within this fraction")
}

// search returns the capacity search the flags ask for, or nil, and sets
// cfg's window to one step. rateFlag is the family's name for the rate.
func (f *searchFlags) search(cfg *load.Config, rateFlag string) (*capacity.Search, error) {
	return f.o.Resolve(cfg, func(n string) bool { return f.fs.Lookup(n) != nil && f.fs.Changed(n) }, rateFlag)
}
