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
	f.o.Step, f.o.Precision = 10*time.Second, capacity.DefaultPrecision
	declare(fs,
		opt{"Find", "find-max-rate", "", &f.o.Find, "find the highest open-loop rate that meets --slo: ramp from the rate given (or 10/s, but not below the rate that gives a step 100 operations, 1,000 for p999), bisect, confirm"},
		opt{"SLO", "slo", "", &f.o.SLO, "objective of --find-max-rate, e.g. p99<15ms or p99<15ms,p999<50ms,errors<0.1% (no drops is always part of it)"},
		opt{"Step", "step-duration", "", &f.o.Step, "--find-max-rate: measured window of each step (each has its own warm-up)"},
		opt{"Precision", "precision", "", &f.o.Precision, "--find-max-rate: stop bisecting when the bracket is within this fraction"})
}

// searchFieldFlags maps the search's fields to its flags, for the
// commands that name them without binding them (calibrate's advice).
func searchFieldFlags() map[string]string {
	var f searchFlags
	fs := pflag.NewFlagSet("search", pflag.ContinueOnError)
	f.bind(fs, nil)
	return fieldFlags(fs)
}

// search returns the capacity search the flags ask for, or nil, and sets
// cfg's window to one step.
func (f *searchFlags) search(cfg *load.Config, countFlag string) (*capacity.Search, error) {
	fields := fieldFlags(f.fs)
	fields["Count"] = countFlag
	s, err := f.o.Resolve(cfg, given(f.fs, fields))
	return s, usage.Spell(err, spelling(f.fs, fields))
}
