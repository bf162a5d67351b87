package cli

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/load"
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
}

func (f *runFlags) bind(fs *pflag.FlagSet, def load.Config) {
	f.fs = fs
	f.cfg = def
	fs.IntVar(&f.cfg.Workers, "workers", def.Workers, "closed loop: concurrent workers; open loop: workers made up front")
	fs.Float64Var(&f.cfg.Rate, "rate", def.Rate, "open loop: operations per second in total (0: closed loop)")
	fs.StringVar(&f.arrival, "arrival", string(load.ArrivalConstant), "open-loop arrival process: constant or poisson")
	fs.IntVar(&f.cfg.MaxInFlight, "max-in-flight", def.MaxInFlight, "open loop: most operations in flight; later arrivals are counted as dropped")
	fs.DurationVar(&f.cfg.Duration, "duration", def.Duration, "length of the measured window")
	fs.Int64Var(&f.cfg.Count, "count", 0, "stop after this many measured operations instead of a duration")
	fs.DurationVar(&f.cfg.Warmup, "warmup", def.Warmup, "run this long before measuring (0: no warm-up)")
	fs.IntVar(&f.repeat, "repeat", 1, "independent repetitions, each a run in the result")
	fs.Uint64Var(&f.cfg.Seed, "seed", def.Seed, "seed for every random choice")
	fs.DurationVar(&f.cfg.Interval, "progress", def.Interval, "interval of progress snapshots; lines go to stderr when it is a terminal or this flag is given (0: none)")
	fs.DurationVar(&f.cfg.Grace, "grace", def.Grace, "how long operations running at the end may take before they are cancelled")
	fs.StringVar(&f.shard, "shard", "", "run part I of N of the test (I/N, 0-based): --rate, --workers and --count are divided among the shards; merge the results with 'dbmeter merge'")
	fs.StringVar(&f.startAt, "start-at", "", "start (the warm-up) at this wall-clock time, RFC 3339 or +DURATION from now, so that shards measure the same seconds")
	f.output.bind(fs)
}

// applyShard parses --shard and --start-at into cfg and divides the test's
// totals among the shards.
func (f *runFlags) applyShard(cfg *load.Config, now time.Time) error {
	if f.shard != "" {
		sh, err := load.ParseShard(f.shard)
		if err != nil {
			return usage.Wrap(fmt.Errorf("--shard %w", err))
		}
		if *cfg, err = cfg.ForShard(sh); err != nil {
			return usage.Wrap(err)
		}
	}
	if f.startAt != "" {
		t, err := load.ParseStartAt(f.startAt, now)
		if err != nil {
			return usage.Wrap(fmt.Errorf("--start-at %w", err))
		}
		cfg.StartAt = t
	}
	return nil
}

// config checks the flags and returns the load configuration.
func (f *runFlags) config() (load.Config, error) {
	cfg := f.cfg
	changed := f.fs.Changed
	if changed("count") && !changed("duration") {
		cfg.Duration = 0
	}
	a, err := load.ParseArrival(f.arrival)
	if err != nil {
		return cfg, usage.Wrap(err)
	}
	cfg.Arrival = a
	open := cfg.Rate > 0 || (f.search != nil && f.search.find)
	switch {
	case changed("duration") && cfg.Duration <= 0:
		return cfg, usagef("--duration must be positive, got %s", cfg.Duration)
	case changed("count") && cfg.Count <= 0:
		return cfg, usagef("--count must be positive, got %d", cfg.Count)
	case changed("count") && changed("duration"):
		return cfg, usagef("--count and --duration contradict each other: give one")
	case changed("rate") && cfg.Rate <= 0:
		return cfg, usagef("--rate must be positive, got %g", cfg.Rate)
	case changed("arrival") && !open:
		return cfg, usagef("--arrival needs --rate (it shapes open-loop arrivals)")
	case changed("max-in-flight") && !open:
		return cfg, usagef("--max-in-flight needs --rate (it bounds open-loop arrivals)")
	case f.repeat < 1:
		return cfg, usagef("--repeat must be at least 1, got %d", f.repeat)
	case changed("progress") && cfg.Interval < 0:
		return cfg, usagef("--progress must not be negative, got %s", cfg.Interval)
	}
	if err := f.applyShard(&cfg, time.Now()); err != nil {
		return cfg, err
	}
	if cfg.Open() && !changed("max-in-flight") {
		cfg.MaxInFlight = max(cfg.MaxInFlight, cfg.Workers)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usage.Wrap(err)
	}
	return cfg, nil
}

// changed says whether the user gave flag name; false before bind.
func (f *runFlags) changed(name string) bool {
	return f.fs != nil && f.fs.Lookup(name) != nil && f.fs.Changed(name)
}

// limit is what bounds each run, for the progress display: the measured
// window, or in count mode the operations.
func (f *runFlags) limit() (time.Duration, int64) {
	if f.changed("count") && !f.changed("duration") {
		return 0, f.cfg.Count
	}
	return f.cfg.Duration, 0
}
