package query

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/load"
)

// Workload drives one Querier with one Spec for the load engine. It keeps
// what the engine does not: decode time per query and per row, and the
// first server error with the query that caused it.
type Workload struct {
	q        Querier
	spec     Spec
	prepared bool
	// measuring is set when the measured window starts (after warm-up), so
	// decode figures cover the same queries as the latencies.
	measuring atomic.Bool
	mu        struct {
		sync.Mutex
		workers   []*worker
		serverErr error  // the first server error
		serverSQL string // the query text that caused it
		serverN   int64
	}
}

// NewWorkload runs spec through q; prepared passes arguments to the client
// instead of inlining them.
func NewWorkload(q Querier, spec Spec, prepared bool) *Workload {
	return &Workload{q: q, spec: spec, prepared: prepared}
}

// Ops are the workload's operation names: the spec's.
func (w *Workload) Ops() []string { return []string{w.spec.Name} }

// Measure starts counting decode figures.
func (w *Workload) Measure() { w.measuring.Store(true) }

// NewWorker implements load.NewWorker.
func (w *Workload) NewWorker(_ context.Context, _ int, rng *rand.Rand) (load.Worker, error) {
	wk := &worker{w: w, rng: rng, decode: hist.New()}
	w.mu.Lock()
	w.mu.workers = append(w.mu.workers, wk)
	w.mu.Unlock()
	return wk, nil
}

type worker struct {
	w      *Workload
	rng    *rand.Rand
	decode *hdrhistogram.Histogram // decode ns per query
	// Owned by the worker's goroutine during the run, read after it.
	decodeNs, rows int64
}

func (k *worker) Do(ctx context.Context) (load.Outcome, error) {
	w := k.w
	text := w.spec.SQL
	var args []any
	if w.spec.Args != nil {
		args = w.spec.Args(k.rng)
	}
	if !w.prepared && len(args) > 0 {
		var err error
		if text, err = Inline(text, args); err != nil {
			return load.Outcome{}, err
		}
		args = nil
	}
	st, err := w.q.Query(ctx, text, args...)
	if err != nil {
		if IsServerError(err) {
			w.noteServerError(text, err, w.measuring.Load())
		}
		return load.Outcome{}, err
	}
	if w.measuring.Load() {
		k.decode.RecordValue(max(st.DecodeNs, hist.Lowest))
		k.decodeNs += st.DecodeNs
		k.rows += st.Rows
	}
	return load.Outcome{Rows: st.Rows, Bytes: st.Bytes}, nil
}

func (w *Workload) noteServerError(text string, err error, measured bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mu.serverErr == nil {
		w.mu.serverErr, w.mu.serverSQL = err, text
	}
	if measured {
		w.mu.serverN++
	}
}

// Decode returns the decode time of the measured queries and the rows
// they decoded. Call it after the run.
func (w *Workload) Decode() (h *hdrhistogram.Histogram, ns, rows int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	h = hist.New()
	for _, k := range w.mu.workers {
		h.Merge(k.decode)
		ns += k.decodeNs
		rows += k.rows
	}
	return h, ns, rows
}

// ServerError describes the server errors of the run once, with the query
// that caused the first; nil when there were none.
func (w *Workload) ServerError() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mu.serverErr == nil {
		return nil
	}
	return fmt.Errorf("the server refused %d measured queries; the first was %q: %w", w.mu.serverN, w.mu.serverSQL, w.mu.serverErr)
}

// ErrUnsupported says a client cannot do what the options ask.
var ErrUnsupported = errors.New("not supported")
