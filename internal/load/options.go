package load

import (
	"fmt"
	"time"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// Options are the load settings as the long-flag families (null, kv, ch)
// take them on the command line; Resolve checks them and names the flags in
// its errors, which are usage errors. pg binds pgbench's spellings to a
// Config itself.
type Options struct {
	Config  Config
	Arrival string
	Repeat  int
	// Shard (I/N) and StartAt (RFC 3339 or +DURATION) split a test across
	// processes; empty: not split.
	Shard, StartAt string
}

// Resolve returns the Config the options describe. given says whether the
// user set a flag (the defaults of --duration and --count contradict each
// other only when both are given); search says a capacity search will make
// the run open loop without --rate.
func (o Options) Resolve(given func(flag string) bool, search bool, now time.Time) (Config, error) {
	cfg := o.Config
	if given("count") && !given("duration") {
		cfg.Duration = 0
	}
	a, err := ParseArrival(o.Arrival)
	if err != nil {
		return cfg, usage.Wrap(err)
	}
	cfg.Arrival = a
	open := cfg.Rate > 0 || search
	// Config.Validate checks these too, in words pg shares; here they are
	// said with the flags' names.
	switch {
	case cfg.Workers < 1:
		return cfg, usage.Errorf("--workers must be at least 1, got %d", cfg.Workers)
	case cfg.Warmup < 0:
		return cfg, usage.Errorf("--warmup must not be negative, got %s", cfg.Warmup)
	case cfg.Grace < 0:
		return cfg, usage.Errorf("--grace must not be negative, got %s", cfg.Grace)
	case !open && cfg.Count > 0 && cfg.Count < int64(cfg.Workers):
		return cfg, usage.Errorf("--count %d must be at least --workers %d: each worker runs one operation at least", cfg.Count, cfg.Workers)
	case given("duration") && cfg.Duration <= 0:
		return cfg, usage.Errorf("--duration must be positive, got %s", cfg.Duration)
	case given("count") && cfg.Count <= 0:
		return cfg, usage.Errorf("--count must be positive, got %d", cfg.Count)
	case given("count") && given("duration"):
		return cfg, usage.Errorf("--count and --duration contradict each other: give one")
	case given("rate") && cfg.Rate <= 0:
		return cfg, usage.Errorf("--rate must be positive, got %g", cfg.Rate)
	case given("arrival") && !open:
		return cfg, usage.Errorf("--arrival needs --rate (it shapes open-loop arrivals)")
	case given("max-in-flight") && !open:
		return cfg, usage.Errorf("--max-in-flight needs --rate (it bounds open-loop arrivals)")
	case o.Repeat < 1:
		return cfg, usage.Errorf("--repeat must be at least 1, got %d", o.Repeat)
	case given("progress") && cfg.Interval < 0:
		return cfg, usage.Errorf("--progress must not be negative, got %s", cfg.Interval)
	}
	if cfg, err = o.split(cfg, now); err != nil {
		return cfg, usage.Wrap(err)
	}
	if cfg.Open() && !given("max-in-flight") {
		cfg.MaxInFlight = max(cfg.MaxInFlight, cfg.Workers)
	}
	return cfg, usage.Wrap(cfg.Validate())
}

// split applies --shard, dividing the test's totals among the shards, and
// --start-at.
func (o Options) split(cfg Config, now time.Time) (Config, error) {
	if o.Shard != "" {
		sh, err := ParseShard(o.Shard)
		if err != nil {
			return cfg, fmt.Errorf("--shard %w", err)
		}
		if cfg, err = cfg.ForShard(sh); err != nil {
			return cfg, err
		}
	}
	if o.StartAt != "" {
		t, err := ParseStartAt(o.StartAt, now)
		if err != nil {
			return cfg, fmt.Errorf("--start-at %w", err)
		}
		cfg.StartAt = t
	}
	return cfg, nil
}
