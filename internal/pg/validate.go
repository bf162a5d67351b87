package pg

import (
	"errors"
	"fmt"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/bench"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
)

// Validate reports the first setting pgbench would refuse, in pgbench's
// words where it has some, before anything connects. It names the
// Command's fields as {Field}: the CLI spells them as the user's flags.
func (f *Command) Validate() error {
	switch {
	case f.ProgressStamp && f.Progress == 0:
		return errors.New("{ProgressStamp} is allowed only under {Progress}")
	case f.Initialize && f.Outputs:
		return errors.New("{Initialize} only initialises the tables and writes no result: leave out {JSON}, {HTML}, {MD} and {CSV}")
	case f.Initialize && f.StorageProfile != "":
		return errors.New("{Initialize} loads the tables without a storage profile: give {StorageProfile} to the runs")
	case f.Clients < 1:
		return fmt.Errorf("{Clients} must be at least 1, got %d", f.Clients)
	case f.Jobs < 1:
		return fmt.Errorf("{Jobs} must be at least 1, got %d", f.Jobs)
	case f.Jobs > f.Clients:
		return fmt.Errorf("{Jobs} (%d) must not exceed {Clients} (%d): each thread needs at least one client", f.Jobs, f.Clients)
	case f.given("Seconds") && f.Seconds <= 0:
		return fmt.Errorf("{Seconds} must be a positive number of seconds, got %d", f.Seconds)
	case f.given("PerClient") && f.PerClient <= 0:
		return fmt.Errorf("{PerClient} must be a positive number of transactions, got %d", f.PerClient)
	case f.given("Seconds") && f.given("PerClient"):
		return errors.New("{Seconds} and {PerClient} contradict each other: give one")
	case f.Progress < 0:
		return fmt.Errorf("{Progress} must not be negative, got %d", f.Progress)
	case f.given("Rate") && f.Rate <= 0:
		return fmt.Errorf("{Rate} must be a positive rate, got %g", f.Rate)
	case f.LatencyLimit < 0:
		return fmt.Errorf("{LatencyLimit} must not be negative, got %g", float64(f.LatencyLimit)/float64(time.Millisecond))
	case f.given("Scale") && f.Scale < 1:
		return fmt.Errorf("{Scale} must be at least 1, got %d", f.Scale)
	case (f.given("SamplingRate") || f.given("AggInterval") || f.given("LogPrefix")) && !f.Log:
		return errors.New("{SamplingRate}, {AggInterval} and {LogPrefix} need {Log}")
	case f.given("SamplingRate") && (f.SamplingRate <= 0 || f.SamplingRate > 1):
		return fmt.Errorf("{SamplingRate} must be in (0, 1], got %g", f.SamplingRate)
	case f.given("AggInterval") && f.AggInterval <= 0:
		return fmt.Errorf("{AggInterval} must be a positive number of seconds, got %d", f.AggInterval)
	case f.given("SamplingRate") && f.given("AggInterval"):
		return errors.New("log sampling ({SamplingRate}) and aggregation ({AggInterval}) cannot be used at the same time")
	case f.AggInterval > 0 && f.given("Seconds") && f.Seconds%f.AggInterval != 0:
		return fmt.Errorf("duration (%d) must be a multiple of aggregation interval (%d)", f.Seconds, f.AggInterval)
	case f.MaxTries < 0:
		return fmt.Errorf("{MaxTries} must not be negative, got %d", f.MaxTries)
	case f.MaxTries == 0 && !f.given("Seconds") && f.LatencyLimit == 0:
		return errors.New("an unlimited number of transaction tries ({MaxTries} 0) can only be used with {LatencyLimit} or a duration ({Seconds})")
	case f.Warmup < 0 || f.Grace < 0:
		return errors.New("{Warmup} and {Grace} must not be negative")
	case f.ConnectTimeout <= 0:
		return fmt.Errorf("{ConnectTimeout} must be positive, got %s", f.ConnectTimeout)
	case f.ServerStatsInterval < 0:
		return fmt.Errorf("{ServerStatsInterval} must be positive, got %s", f.ServerStatsInterval)
	}
	return nil
}

// loadConfig maps the options onto the load engine. -R uses pgbench's
// model: one connection per client and a queue, so a transaction that
// waits for a busy client is timed from its scheduled start.
func (f *Command) loadConfig() load.Config {
	cfg := load.DefaultConfig()
	cfg.Workers = f.Clients
	cfg.MaxInFlight = f.Clients
	cfg.Warmup = f.Warmup
	cfg.Grace = f.Grace
	cfg.Seed = f.Seed
	cfg.Classify = driver.Classify
	cfg.Interval = time.Second
	if f.Progress > 0 {
		cfg.Interval = time.Duration(f.Progress) * time.Second
	}
	if f.given("Seconds") {
		cfg.Duration = time.Duration(f.Seconds) * time.Second
	} else {
		cfg.Duration = 0
		cfg.Count = int64(f.PerClient) * int64(f.Clients)
	}
	if f.Rate > 0 {
		cfg.Rate = f.Rate
		cfg.Queue = bench.RateQueue(f.Rate)
		cfg.SkipLate = f.LatencyLimit
	}
	return cfg
}
