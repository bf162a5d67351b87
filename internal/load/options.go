package load

import (
	"time"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// Options are the load settings as the long-flag families (null, kv, ch)
// take them on the command line; Resolve checks them, and its errors are
// usage errors that name settings as {Field}: a field of Config (Workers,
// Rate, MaxInFlight, Duration, Count, Warmup, Interval, Grace) or of
// Options (Arrival, Repeat, Shard, StartAt), which the CLI spells as its
// flags. pg binds pgbench's spellings to a Config itself.
type Options struct {
	Config  Config
	Arrival string
	Repeat  int
	// Shard (I/N) and StartAt (RFC 3339 or +DURATION) split a test across
	// processes; empty: not split.
	Shard, StartAt string
	// Listed says Workers or Rate was given as a list of several values,
	// which only a command that Sweeps them runs (each value a variant).
	Listed, Sweeps bool
}

// Resolve returns the Config the options describe. given says whether the
// user set a field (the default Duration and a given Count contradict each
// other only when both are given); search says a capacity search will make
// the run open loop without a Rate.
func (o Options) Resolve(given func(field string) bool, search bool, now time.Time) (Config, error) {
	cfg := o.Config
	if o.Listed && !o.Sweeps {
		return cfg, usage.Errorf("{Workers} and {Rate} take one value for this command")
	}
	if given("Count") && !given("Duration") {
		cfg.Duration = 0
	}
	a, err := ParseArrival(o.Arrival)
	if err != nil {
		return cfg, usage.Wrap(err)
	}
	cfg.Arrival = a
	open := cfg.Rate > 0 || search
	// Config.Validate holds the settings' own rules; here only what the
	// command line can get wrong: a flag given as 0, flags that contradict.
	switch {
	case given("Duration") && cfg.Duration <= 0:
		return cfg, usage.Errorf("{Duration} must be positive, got %s", cfg.Duration)
	case given("Count") && cfg.Count <= 0:
		return cfg, usage.Errorf("{Count} must be positive, got %d", cfg.Count)
	case given("Count") && given("Duration"):
		return cfg, usage.Errorf("{Count} and {Duration} contradict each other: give one")
	case given("Rate") && cfg.Rate <= 0:
		return cfg, usage.Errorf("{Rate} must be positive, got %g", cfg.Rate)
	case given("Arrival") && !open:
		return cfg, usage.Errorf("{Arrival} needs {Rate} (it shapes open-loop arrivals)")
	case given("MaxInFlight") && !open:
		return cfg, usage.Errorf("{MaxInFlight} needs {Rate} (it bounds open-loop arrivals)")
	case o.Repeat < 1:
		return cfg, usage.Errorf("{Repeat} must be at least 1, got %d", o.Repeat)
	}
	// Before the split: a shard's share could hide a setting that
	// cannot work for the whole test.
	if err := cfg.validateSettings(); err != nil {
		return cfg, usage.Wrap(err)
	}
	if cfg, _, err = (ShardSpec{Shard: o.Shard, StartAt: o.StartAt}).Apply(cfg, now); err != nil {
		return cfg, usage.Wrap(err)
	}
	if cfg.Open() && !given("MaxInFlight") {
		cfg.MaxInFlight = max(cfg.MaxInFlight, cfg.Workers)
	}
	return cfg, usage.Wrap(cfg.Validate())
}
