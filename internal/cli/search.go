package cli

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
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

// searchFields names the flag that sets each field capacity.Options.Resolve
// asks about; countFlag is the family's name for a run's operation count.
func searchFields(countFlag string) map[string]string {
	return map[string]string{"Find": "find-max-rate", "SLO": "slo", "Step": "step-duration", "Precision": "precision",
		"Rate": "rate", "Count": countFlag}
}

// search returns the capacity search the flags ask for, or nil, and sets
// cfg's window to one step.
func (f *searchFlags) search(cfg *load.Config, countFlag string) (*capacity.Search, error) {
	fields := searchFields(countFlag)
	s, err := f.o.Resolve(cfg, given(f.fs, fields))
	return s, usage.Spell(err, spelling(f.fs, fields))
}
