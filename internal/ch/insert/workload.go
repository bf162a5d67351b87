package insert

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/load"
)

// Op is the one operation of the workload: one block, built and sent.
const Op = "insert"

// Ops names the operations for load.Run.
var Ops = []string{Op}

// Phases names the parts of an insert the runner times apart: building the
// block in the client, and sending it (network and server).
var Phases = []string{"build", "send"}

const (
	phaseBuild = iota
	phaseSend
	phaseClient // external clients only (externalPhases)
)

// Workload runs one client path: each operation takes the next generated
// block, builds it with the client and sends it. It counts the rows the
// server acknowledged, and reports build and send as phases.
type Workload struct {
	client Client
	opts   Options
	table  string
	ring   []*ch.Block
	bytes  []int64 // PayloadBytes of each ring block

	next      atomic.Int64 // index of the next block
	remaining atomic.Int64 // rows left to insert; <0: no limit
	acked     atomic.Int64 // rows in INSERTs the server acknowledged
	// uncertain counts rows in INSERTs that failed after their data was
	// sent: the server may have stored them before the acknowledgement was
	// lost, so the row check can neither count them as lost nor as landed.
	uncertain atomic.Int64
}

// NewWorkload prepares a run of client c into table, cycling through ring.
// rows > 0 inserts exactly that many rows in total (the last block may be
// short).
func NewWorkload(c Client, o Options, table Table, ring []*ch.Block, rows int64) *Workload {
	w := &Workload{client: c, opts: o, table: table.String(), ring: ring}
	for _, b := range ring {
		w.bytes = append(w.bytes, b.PayloadBytes())
	}
	if rows > 0 {
		w.remaining.Store(rows)
	} else {
		w.remaining.Store(-1)
	}
	return w
}

// NewWorker opens one connection through the client; it is a load.NewWorker.
func (w *Workload) NewWorker(ctx context.Context, id int, _ *rand.Rand) (load.Worker, error) {
	ins, err := w.client.Open(ctx, w.opts)
	if err != nil {
		return nil, err
	}
	return &worker{w: w, ins: ins}, nil
}

// take reserves up to n rows of the budget.
func (w *Workload) take(n int) int {
	for {
		left := w.remaining.Load()
		if left < 0 {
			return n
		}
		got := min(int64(n), left)
		if w.remaining.CompareAndSwap(left, left-got) {
			return int(got)
		}
	}
}

// Acked is the rows the server acknowledged, warm-up included. Read it
// after load.Run returned (which closes the workers, committing any INSERT
// left open).
func (w *Workload) Acked() int64 { return w.acked.Load() }

// Uncertain is the rows whose INSERT failed after sending them: they may or
// may not be in the table.
func (w *Workload) Uncertain() int64 { return w.uncertain.Load() }

// worker is one connection, made again after a failure.
type worker struct {
	w *Workload
	// ins is nil after a failed operation: the next one reconnects. An
	// inserter that failed is in a state dbmeter cannot know (clickhouse-go
	// v1 closes its connection to roll back, ch-go closes its client on any
	// error, v2's batch is spent), so it is replaced rather than reused.
	ins     ch.Inserter
	phases  load.Phases
	pending int64 // rows sent in the INSERT still open
	blocks  int   // blocks sent in the INSERT still open
	// The runner closes its workers even while an operation it abandoned
	// as stuck still runs (ch-go, cancelled, may take its 1 s cancel
	// deadline and more to return). mu is held by Do; Close, finding it
	// held, leaves the closing to that operation when it returns.
	mu      sync.Mutex
	closing atomic.Bool
}

var _ load.Worker = (*worker)(nil)

func (k *worker) Do(ctx context.Context) (load.Outcome, error) {
	k.mu.Lock()
	defer k.closeAbandoned() // after the unlock below
	defer k.mu.Unlock()
	return k.do(ctx)
}

func (k *worker) do(ctx context.Context) (load.Outcome, error) {
	w := k.w
	t0 := time.Now()
	if k.ins == nil {
		// A reconnect that fails is a connection error: the closed loop
		// backs off before the next try.
		ins, err := w.client.Open(ctx, w.opts)
		if err != nil {
			return load.Outcome{}, ch.Mark(fmt.Errorf("reconnect: %w", err))
		}
		k.ins = ins
	}
	n := w.take(w.opts.Batch)
	if n == 0 {
		return load.Outcome{}, load.WithKind(fmt.Errorf("no rows left to insert"), load.KindOther)
	}
	i := int(w.next.Add(1)-1) % len(w.ring)
	b, bytes := w.ring[i], w.bytes[i]
	if n < b.Rows {
		b = b.Head(n)
		bytes = b.PayloadBytes()
	}
	batch, err := k.ins.Build(ctx, w.table, b)
	if err != nil {
		k.fail(0)
		return load.Outcome{}, ch.Mark(fmt.Errorf("build block: %w", cancelled(ctx, err)))
	}
	t1 := time.Now()
	if err := batch.Send(ctx); err != nil {
		// The server may have stored the block before the failure reached
		// us.
		k.fail(int64(n))
		return load.Outcome{}, ch.Mark(fmt.Errorf("send block: %w", cancelled(ctx, err)))
	}
	t2 := time.Now()
	k.pending += int64(n)
	k.blocks++
	if !w.client.Streams || k.blocks >= w.opts.perInsert() {
		w.acked.Add(k.pending)
		k.pending, k.blocks = 0, 0
	}
	k.phases[phaseBuild] = load.Phase(t1.Sub(t0))
	k.phases[phaseSend] = load.Phase(t2.Sub(t1))
	if ct, ok := k.ins.(clientTimed); ok {
		k.phases[phaseClient] = load.Phase(ct.clientTime())
	}
	return load.Outcome{Rows: int64(n), Bytes: bytes, Phases: &k.phases}, nil
}

// cancelled is err, marked as ctx's cancellation when ctx is done, so
// that the runner counts the operation unfinished: database/sql rolls a
// transaction back when its context ends, and an Exec or Commit racing
// with that reports the rollback ("sql: statement is closed",
// sql.ErrTxDone), not the cancellation.
func cancelled(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w (%w)", cerr, err)
	}
	return err
}

// fail ends the connection after a failed operation. None of the open
// INSERT's rows is acknowledged, but the server stores each block of a
// streamed INSERT as it arrives, so the rows already sent in it, and sent
// (rows whose send failed), may have landed: they are uncertain.
func (k *worker) fail(sent int64) {
	k.w.uncertain.Add(k.pending + sent)
	k.pending, k.blocks = 0, 0
	k.ins.Close()
	k.ins = nil
}

// commitTimeout bounds the commit of an INSERT left open at the end.
const commitTimeout = 5 * time.Minute

// Close ends an INSERT left open by streaming (its rows then count as
// acknowledged) and closes the connection. If an abandoned operation still
// runs, that operation closes the connection when it returns.
func (k *worker) Close() error {
	k.closing.Store(true)
	if !k.mu.TryLock() {
		return nil
	}
	defer k.mu.Unlock()
	return k.close(true)
}

// closeAbandoned closes the connection of an operation that returned
// after the run closed its worker. Its open INSERT is not committed: the
// run has taken its counts, so its rows stay uncertain.
func (k *worker) closeAbandoned() {
	if k.closing.Load() && k.mu.TryLock() {
		k.close(false)
		k.mu.Unlock()
	}
}

// close ends the worker's connection once, committing an INSERT left open
// if commit; k.mu is held.
func (k *worker) close(commit bool) error {
	if k.ins == nil {
		return nil
	}
	defer func() { k.ins = nil }()
	if !commit {
		k.w.uncertain.Add(k.pending)
		k.pending, k.blocks = 0, 0
	}
	if c, ok := k.ins.(ch.Committer); ok && k.blocks > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
		err := c.Commit(ctx)
		cancel()
		if err == nil {
			k.w.acked.Add(k.pending)
		} else {
			k.w.uncertain.Add(k.pending)
		}
		k.pending, k.blocks = 0, 0
	}
	return k.ins.Close()
}
