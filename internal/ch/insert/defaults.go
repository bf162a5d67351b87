package insert

import (
	"time"

	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/load"
)

// The default experiment, when the user gives no extent (neither a
// duration, a count, repetitions nor rows): a block of 100,000 rows takes
// over a second, and DefaultRepeat × DefaultDuration gives a client of
// 60,000 rows/s about 24 blocks, enough for a rows/s unmarked.
const (
	DefaultRepeat   = 5
	DefaultDuration = 8 * time.Second
)

// DefaultExtent is the default experiment, unless the user gives an
// extent of their own, Rows included.
func DefaultExtent() load.Extent {
	return load.Extent{Repeat: DefaultRepeat, Duration: DefaultDuration, Also: []string{"Rows"}}
}

// DefaultLoad is a run's load when the user sets none of it. A block is a
// long operation and the connection is made before the run, so there is
// no warm-up; with Rows every row counts.
func DefaultLoad() load.Config {
	c := load.DefaultConfig()
	c.Warmup = 0
	return c
}

// DefaultCommand is the command line with nothing given: every client the
// server supports, blocks of 100,000 event rows into dbmeter's own
// MergeTree table, one block per INSERT, TCP_NODELAY on, as the clients
// set it. The CLI binds its flags from these.
func DefaultCommand() Command {
	return Command{
		Clients: Auto, Table: DefaultDatabase + ".event", Schema: EventTable.Name,
		Config: Config{Batches: []int{100_000}, Engine: EngineMergeTree, BlocksPerInsert: 1, NoDelay: true, WorkerTimeout: extworker.DefaultOpTimeout},
	}
}
