package cli

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/flagval"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// runFlags are the load-engine flags shared by the families that use long
// names (null, kv, ch). pg binds pgbench's spellings to the same config.
type runFlags struct {
	cfg     load.Config
	arrival string
	repeat  int
	output  outputFlags
	fs      *pflag.FlagSet
	// search, when bound, may make the run open loop without --rate.
	search  *searchFlags
	shard   string
	startAt string
	// workers is --workers as typed; a list is a sweep, for the commands
	// that set sweeps (the others take one value).
	workers []int
	rates   []float64
	sweeps  bool
	extent  *load.Extent // the default run, when not the flags' defaults
}

func (f *runFlags) bind(fs *pflag.FlagSet, def load.Config) {
	f.fs, f.cfg, f.repeat, f.arrival = fs, def, 1, string(load.ArrivalConstant)
	f.workers, f.rates = []int{def.Workers}, []float64{def.Rate}
	c := &f.cfg
	declare(fs,
		opt{"Workers", "workers", "", (*flagval.IntList)(&f.workers), "closed loop: concurrent workers; open loop: workers made up front (ch insert, ch query: a list 1,2,4 sweeps)"},
		opt{"Rate", "rate", "", (*flagval.FloatList)(&f.rates), "open loop: operations per second in total (0: closed loop; ch query: a list 50,100 sweeps)"},
		opt{"Arrival", "arrival", "", &f.arrival, "open-loop arrival process: constant or poisson"},
		opt{"MaxInFlight", "max-in-flight", "", &c.MaxInFlight, "open loop: most operations in flight; later arrivals are counted as dropped"},
		opt{"Duration", "duration", "", &c.Duration, "length of the measured window"},
		opt{"Count", "count", "", &c.Count, "stop after this many measured operations instead of a duration"},
		opt{"Warmup", "warmup", "", &c.Warmup, "run this long before measuring (0: no warm-up)"},
		opt{"Repeat", "repeat", "", &f.repeat, "independent repetitions, each a run in the result"},
		opt{"Seed", "seed", "", &c.Seed, "seed for every random choice"},
		opt{"Interval", "progress", "", &c.Interval, "interval of progress snapshots; lines go to stderr when it is a terminal or this flag is given (0: none)"},
		opt{"Grace", "grace", "", &c.Grace, "how long operations running at the end may take before they are cancelled"},
		opt{"Shard", "shard", "", &f.shard, "run part I of N of the test (I/N, 0-based): --rate, --workers and --count are divided among the shards; merge the results with 'dbmeter merge'"},
		opt{"StartAt", "start-at", "", &f.startAt, "start (the warm-up) at this wall-clock time, RFC 3339 or +DURATION from now, so that shards measure the same seconds"})
	f.output.bind(fs)
}

// runFields maps the fields of load.Options and its Config to the flags
// bind declares for them, for the commands that name them without
// binding them (calibrate's advice).
func runFields() map[string]string {
	var f runFlags
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	f.bind(fs, load.DefaultConfig())
	return fieldFlags(fs)
}

// config checks the flags and returns the load configuration.
func (f *runFlags) config() (load.Config, error) {
	if f.changed("workers") {
		f.cfg.Workers = f.workers[0]
	}
	if f.changed("rate") {
		f.cfg.Rate = f.rates[0]
	}
	o := load.Options{Config: f.cfg, Arrival: f.arrival, Repeat: f.repeat, Shard: f.shard, StartAt: f.startAt,
		Listed: len(f.workers) > 1 || len(f.rates) > 1, Sweeps: f.sweeps}
	fields := fieldFlags(f.fs)
	cfg, err := o.Resolve(given(f.fs, fields), f.search != nil && f.search.o.Find, time.Now())
	return cfg, usage.Spell(err, spelling(f.fs, fields))
}

// defaultExtent declares the command's default extent, and shows it in
// the help; applyExtent applies it.
func (f *runFlags) defaultExtent(e load.Extent) {
	f.extent = &e
	f.fs.Lookup("repeat").DefValue = fmt.Sprintf("1; with no --duration, --count or --repeat: %d repetitions of %s", e.Repeat, e.Duration)
}

// applyExtent makes the run its default extent unless the user gave one.
func (f *runFlags) applyExtent() {
	if f.extent != nil {
		f.repeat, f.cfg.Duration = f.extent.Apply(given(f.fs, fieldFlags(f.fs)), f.repeat, f.cfg.Duration)
	}
}

// sweep is a list flag (--workers, --rate) when it was given as several
// values: the sweep of a command that sets sweeps; nil otherwise.
func sweep[T any](list []T) []T {
	if len(list) < 2 {
		return nil
	}
	return list
}

// changed says whether the user gave flag name; false before bind.
func (f *runFlags) changed(name string) bool {
	return f.fs != nil && f.fs.Lookup(name) != nil && f.fs.Changed(name)
}

// opener opens family's outputs as the output flags ask, showing progress
// as the run flags ask.
func (f *runFlags) opener(env Env, family string) plan.OpenOutput {
	return func(diskPath string, secrets ...string) (plan.Output, error) {
		s, err := newSession(env, family, f.output, diskPath, secrets...)
		if err != nil {
			return nil, err
		}
		s.ShowProgress(f.progress())
		return s, nil
	}
}
