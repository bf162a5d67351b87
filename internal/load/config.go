package load

import (
	"errors"
	"fmt"
	"time"
)

// Config says how to drive the workers. The zero value is not valid; start
// from DefaultConfig.
type Config struct {
	// Workers is the number of workers: in closed loop all of them issue
	// operations back to back; in open loop they are made up front and more
	// are made on demand, up to MaxInFlight.
	Workers int
	// Rate is the open-loop arrival rate in operations per second over all
	// workers; 0 means closed loop.
	Rate float64
	// Arrival is the open-loop arrival process.
	Arrival Arrival
	// MaxInFlight bounds the operations in flight in open loop. Arrivals
	// that find MaxInFlight operations running are counted as dropped.
	MaxInFlight int
	// Queue is how many open-loop arrivals may wait for a worker when
	// MaxInFlight are busy; they are timed from their intended start, so the
	// wait shows in latency but not in service time (pgbench -R works this
	// way). 0: an arrival that finds no worker is dropped at once.
	Queue int
	// SkipLate, in open loop, skips an arrival that a worker takes up more
	// than SkipLate after its scheduled start: it is not run and counts as
	// dropped (pgbench -R --latency-limit). 0: every arrival runs.
	SkipLate time.Duration
	// Duration of the measured window; 0 means stop after Count operations.
	Duration time.Duration
	// Count of measured operations; 0 means stop after Duration. In closed
	// loop it is split evenly among the workers.
	Count int64
	// Warmup runs the load without recording it; 0 turns it off.
	Warmup time.Duration
	// Interval is the progress snapshot period; 0 means no intervals.
	Interval time.Duration
	// Grace is how long operations still running at the end of the window
	// may take before their context is cancelled.
	Grace time.Duration
	// Seed seeds every random choice; workers get streams derived from it
	// and from Shard.Index, so shards of one test draw different streams.
	Seed uint64
	// Shard is this process's part of a test split across Shard.Count
	// processes; the zero value is an unsharded run. The caller divides the
	// test's totals (rate, workers, count); the runner offsets constant
	// arrivals by Index/Count of an arrival interval, so the shards together
	// offer an evenly spaced stream.
	Shard Shard
	// StartAt, when set, is the wall-clock time the run (its warm-up)
	// starts: shards given the same StartAt measure the same seconds, and
	// their intervals line up. The runner records how late it really
	// started.
	StartAt time.Time
	// Phases names the parts of an operation a workload times apart
	// (Outcome.Phases), at most MaxPhases.
	Phases []string
	// OnMeasure, if set, is called once when the measured window begins
	// (after warm-up), from the runner's control goroutine, so a family can
	// sample counters of its own (a pool's connections) over exactly the
	// window. It must not block.
	OnMeasure func()
	// OnTagged, if set, is called for each measured operation that
	// succeeded with a Tag, with its service time (from when Do was called
	// to its return: the latency less any schedule lag), so a family can
	// join the operation to the server's own record of it. It is called
	// from the workers, concurrently, and must be quick.
	OnTagged func(tag uint64, service time.Duration)
	// Classify sorts operation errors into kinds; nil means Classify.
	Classify func(error) string
	// InProcessTarget says the target runs inside dbmeter (an embedded
	// engine, the null target), so dbmeter using all the CPU is expected
	// rather than a sign the client starved the measurement.
	InProcessTarget bool
	// Sleep waits between open-loop arrivals. nil means a high-resolution
	// sleep on a thread of its own; tests under testing/synctest, whose fake
	// clock only moves for Go's own timers, set time.Sleep.
	Sleep func(time.Duration)
}

// Shard names one of Count processes that together run one test.
type Shard struct {
	Index, Count int
}

// Sharded reports whether s splits a test.
func (s Shard) Sharded() bool { return s.Count > 0 }

// Split returns shard s's part of total: total/Count, the remainder going
// one each to the lowest indices.
func (s Shard) Split(total int64) int64 {
	_, n := s.Part(total)
	return n
}

// Part returns shard s's share of total numbered items (workers,
// clients): the number of its first among all and how many it has. The
// shards' parts, in index order, number the items as one process would.
func (s Shard) Part(total int64) (first, n int64) {
	if !s.Sharded() {
		return 0, total
	}
	count := int64(s.Count)
	part, rem := total/count, total%count
	idx := int64(s.Index)
	first = idx*part + min(idx, rem)
	if idx < rem {
		part++
	}
	return first, part
}

// stream is the random stream id of stream id within the shard.
func (s Shard) stream(id uint64) uint64 { return uint64(s.Index)<<32 | id }

// Defaults for the run flags.
const (
	DefaultWorkers     = 1
	DefaultDuration    = 10 * time.Second
	DefaultWarmup      = time.Second
	DefaultInterval    = time.Second
	DefaultGrace       = 5 * time.Second
	DefaultMaxInFlight = 1000
	DefaultSeed        = 1
)

// DefaultConfig returns a closed-loop, one-worker, 10 s run with 1 s of
// warm-up and 1 s intervals.
func DefaultConfig() Config {
	return Config{
		Workers:     DefaultWorkers,
		Arrival:     ArrivalConstant,
		MaxInFlight: DefaultMaxInFlight,
		Duration:    DefaultDuration,
		Warmup:      DefaultWarmup,
		Interval:    DefaultInterval,
		Grace:       DefaultGrace,
		Seed:        DefaultSeed,
	}
}

// Open reports whether c is an open-loop configuration.
func (c Config) Open() bool { return c.Rate > 0 }

// Mode is "open" or "closed", as results print it.
func (c Config) Mode() string {
	if c.Open() {
		return "open"
	}
	return "closed"
}

// Validate reports the first setting that cannot work, naming settings
// as {Field} (of Config) for the CLI to spell. It is the one place the
// load settings' rules live; Options.Resolve adds only what a command
// line can get wrong (a flag given as 0, two flags that contradict).
func (c Config) Validate() error {
	if err := c.validateSettings(); err != nil {
		return err
	}
	switch {
	case c.Duration == 0 && c.Count == 0:
		return errors.New("give {Duration} or {Count}")
	case c.Duration > 0 && c.Count > 0:
		return errors.New("{Count} and {Duration} contradict each other: give one")
	case c.Shard.Count < 0 || (c.Shard.Sharded() && (c.Shard.Index < 0 || c.Shard.Index >= c.Shard.Count)):
		return fmt.Errorf("{Shard} %d/%d: want I/N with 0 <= I < N", c.Shard.Index, c.Shard.Count)
	case len(c.Phases) > MaxPhases:
		return fmt.Errorf("a workload may time at most %d phases, got %d", MaxPhases, len(c.Phases))
	case c.Open() && c.MaxInFlight < c.Workers:
		return fmt.Errorf("{MaxInFlight} (%d) must be at least {Workers} (%d)", c.MaxInFlight, c.Workers)
	}
	if c.Open() {
		if _, err := ParseArrival(string(c.Arrival)); err != nil {
			return err
		}
	}
	return nil
}

// validateSettings checks each setting on its own, and the count against
// the workers: what holds before a test is divided among shards as after.
func (c Config) validateSettings() error {
	switch {
	case c.Workers < 1:
		return fmt.Errorf("{Workers} must be at least 1, got %d", c.Workers)
	case c.Rate < 0:
		return fmt.Errorf("{Rate} must be positive, got %g", c.Rate)
	case c.Duration < 0:
		return fmt.Errorf("{Duration} must be positive, got %s", c.Duration)
	case c.Count < 0:
		return fmt.Errorf("{Count} must be positive, got %d", c.Count)
	case c.Warmup < 0:
		return fmt.Errorf("{Warmup} must not be negative, got %s", c.Warmup)
	case c.Interval < 0:
		return fmt.Errorf("{Interval} must not be negative, got %s", c.Interval)
	case c.Queue < 0:
		return fmt.Errorf("the queue bound must not be negative, got %d", c.Queue)
	case c.SkipLate < 0:
		return fmt.Errorf("the lateness to skip at must not be negative, got %s", c.SkipLate)
	case c.Grace < 0:
		return fmt.Errorf("{Grace} must not be negative, got %s", c.Grace)
	case !c.Open() && c.Count > 0 && c.Count < int64(c.Workers):
		return fmt.Errorf("{Count} %d must be at least {Workers} %d: each worker runs one operation at least", c.Count, c.Workers)
	}
	return nil
}
