package load

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/dbmeter/dbmeter/internal/hist"
)

// MaxPhases is the most named phases a workload may declare.
const MaxPhases = hist.MaxPhases

// Phases holds the durations of an operation's named parts, indexed like
// Config.Phases; 0 is a part the operation did not have.
type Phases = hist.Phases

// Outcome says what one Do did. Op indexes the operation names given to Run;
// Rows and Bytes may be 0 when the operation moves none.
type Outcome struct {
	Op    uint8
	Rows  int64
	Bytes int64
	// Phases, when not nil, holds how long named parts of the operation
	// took (building a batch, sending it, decoding a result). The worker
	// owns the array and may reuse it from the next Do on, so returning it
	// costs nothing (a workload without phases leaves it nil and keeps the
	// Outcome small). Phase keeps a part that took no measurable time from
	// reading as absent. The runner records phases under the same rule as
	// latency, so they describe exactly the measured operations.
	Phases *Phases
	// Tag, when not 0, names the operation to the workload's own records
	// (a query id the server logs): the runner hands the tags of measured
	// operations to Config.OnTagged.
	Tag uint64
}

// Phase returns d as a phase duration: at least 1 ns, since 0 means absent.
func Phase(d time.Duration) time.Duration { return max(d, 1) }

// A Worker performs one operation per call. Each Worker is used by one
// goroutine at a time, so it may own buffers and its *rand.Rand without
// locking. A Worker that also implements io.Closer is closed after the run.
type Worker interface {
	Do(ctx context.Context) (Outcome, error)
}

// A Scheduled worker learns, in open loop, when each of its operations was
// meant to start (just before Do) and which arrivals it was handed but
// skipped as already too late (Config.SkipLate; Do is not called for them):
// what a transaction log such as pgbench's -l records. Times are on the
// wall clock.
type Scheduled interface {
	Scheduled(intended time.Time)
	Skipped(intended time.Time)
}

// WorkerFunc adapts a function to Worker.
type WorkerFunc func(ctx context.Context) (Outcome, error)

// Do calls f.
func (f WorkerFunc) Do(ctx context.Context) (Outcome, error) { return f(ctx) }

// NewWorker makes worker id (0, 1, …). rng is seeded from the run's seed and
// id, so a run can be replayed. Workers made before the run starts are not
// timed; in open loop, workers made on demand are timed as part of the
// arrival that needed them, and NewWorker may then be called from several
// goroutines at once.
type NewWorker func(ctx context.Context, id int, rng *rand.Rand) (Worker, error)

// Rand returns the generator for stream id of a run seeded with seed.
func Rand(seed uint64, id uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, id))
}
