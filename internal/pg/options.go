package pg

import (
	"errors"
	"fmt"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
)

// Options are pgbench's run options as plain data, for Validate and
// LoadConfig. Given reports whether the user set an option, by pgbench's
// long name ("time", "transactions", "rate", "scale", "sampling-rate",
// "aggregate-interval", "log-prefix"); nil means none was.
type Options struct {
	Clients, Jobs      int     // -c, -j
	Seconds, PerClient int     // -T, -t
	Progress           int     // -P, seconds
	Rate, LatencyMS    float64 // -R, -L
	Scale              int64   // -s
	MaxTries           int     // --max-tries; 0: no limit
	Log                bool    // -l
	SamplingRate       float64 // --sampling-rate
	AggInterval        int     // --aggregate-interval, seconds
	Warmup, Grace      time.Duration
	Seed               uint64
	Given              func(name string) bool
}

func (o Options) given(name string) bool { return o.Given != nil && o.Given(name) }

// Validate reports the first option pgbench would refuse, in pgbench's
// words where it has some, before anything connects.
func (o Options) Validate() error {
	switch {
	case o.Clients < 1:
		return fmt.Errorf("-c must be at least 1, got %d", o.Clients)
	case o.Jobs < 1:
		return fmt.Errorf("-j must be at least 1, got %d", o.Jobs)
	case o.Jobs > o.Clients:
		return fmt.Errorf("-j (%d) must not exceed -c (%d): each thread needs at least one client", o.Jobs, o.Clients)
	case o.given("time") && o.Seconds <= 0:
		return fmt.Errorf("-T must be a positive number of seconds, got %d", o.Seconds)
	case o.given("transactions") && o.PerClient <= 0:
		return fmt.Errorf("-t must be a positive number of transactions, got %d", o.PerClient)
	case o.given("time") && o.given("transactions"):
		return errors.New("-T and -t contradict each other: give one")
	case o.Progress < 0:
		return fmt.Errorf("-P must not be negative, got %d", o.Progress)
	case o.given("rate") && o.Rate <= 0:
		return fmt.Errorf("-R must be a positive rate, got %g", o.Rate)
	case o.LatencyMS < 0:
		return fmt.Errorf("--latency-limit must not be negative, got %g", o.LatencyMS)
	case o.given("scale") && o.Scale < 1:
		return fmt.Errorf("-s must be at least 1, got %d", o.Scale)
	case (o.given("sampling-rate") || o.given("aggregate-interval") || o.given("log-prefix")) && !o.Log:
		return errors.New("--sampling-rate, --aggregate-interval and --log-prefix need -l (--log)")
	case o.given("sampling-rate") && (o.SamplingRate <= 0 || o.SamplingRate > 1):
		return fmt.Errorf("--sampling-rate must be in (0, 1], got %g", o.SamplingRate)
	case o.given("aggregate-interval") && o.AggInterval <= 0:
		return fmt.Errorf("--aggregate-interval must be a positive number of seconds, got %d", o.AggInterval)
	case o.given("sampling-rate") && o.given("aggregate-interval"):
		return errors.New("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time")
	case o.AggInterval > 0 && o.given("time") && o.Seconds%o.AggInterval != 0:
		return fmt.Errorf("duration (%d) must be a multiple of aggregation interval (%d)", o.Seconds, o.AggInterval)
	case o.MaxTries < 0:
		return fmt.Errorf("--max-tries must not be negative, got %d", o.MaxTries)
	case o.MaxTries == 0 && !o.given("time") && o.LatencyMS == 0:
		return errors.New("an unlimited number of transaction tries (--max-tries 0) can only be used with --latency-limit or a duration (-T)")
	case o.Warmup < 0 || o.Grace < 0:
		return errors.New("--warmup and --grace must not be negative")
	}
	return nil
}

// LoadConfig maps the options onto the load engine. -R uses pgbench's
// model: one connection per client and a queue, so a transaction that
// waits for a busy client is timed from its scheduled start.
func (o Options) LoadConfig() load.Config {
	cfg := load.DefaultConfig()
	cfg.Workers = o.Clients
	cfg.MaxInFlight = o.Clients
	cfg.Warmup = o.Warmup
	cfg.Grace = o.Grace
	cfg.Seed = o.Seed
	cfg.Classify = Classify
	cfg.Interval = time.Second
	if o.Progress > 0 {
		cfg.Interval = time.Duration(o.Progress) * time.Second
	}
	if o.given("time") {
		cfg.Duration = time.Duration(o.Seconds) * time.Second
	} else {
		cfg.Duration = 0
		cfg.Count = int64(o.PerClient) * int64(o.Clients)
	}
	if o.Rate > 0 {
		cfg.Rate = o.Rate
		cfg.Queue = RateQueue(o.Rate)
		if o.LatencyMS > 0 {
			cfg.SkipLate = time.Duration(o.LatencyMS * float64(time.Millisecond))
		}
	}
	return cfg
}

// RateQueue is how many -R arrivals may wait for a busy client: a minute's
// worth, as pgbench lets its schedule fall behind without bound, within
// what fits in memory.
func RateQueue(rate float64) int { return int(min(max(rate*60, 1000), 1<<20)) }
