package query

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/load"
)

// Phases names the part of a query the runner times apart: decoding the
// result in the client.
var Phases = []string{"decode"}

// Workload drives one Querier with one Spec for the load engine. It keeps
// what the engine does not: the first server error with the query that
// caused it.
type Workload struct {
	q        Querier
	specs    []Spec
	prepared bool
	// mix, with several specs, picks the spec of each arrival; drawn
	// counts the picks.
	mix   mixPicker
	drawn atomic.Uint64
	// idPrefix, when set, gives each query the id idPrefix followed by its
	// tag (TagQueries); seq numbers them.
	idPrefix string
	seq      atomic.Uint64
	mu       struct {
		sync.Mutex
		serverErr error  // the first server error
		serverSQL string // the query text that caused it
		serverN   int64
	}
}

// NewWorkload runs spec through q; prepared passes arguments to the client
// instead of inlining them.
func NewWorkload(q Querier, spec Spec, prepared bool) *Workload {
	return &Workload{q: q, specs: []Spec{spec}, prepared: prepared}
}

// NewMixWorkload runs a query file's queries through q, each arrival
// picking one by weight, deterministically from seed; each query is an
// operation of its own, named as in the file (q1, q2, …).
func NewMixWorkload(q Querier, mix []MixQuery, seed uint64, prepared bool) *Workload {
	w := &Workload{q: q, prepared: prepared, mix: newMixPicker(mix, seed)}
	for _, m := range mix {
		w.specs = append(w.specs, CustomSpec(m.SQL, nil))
		w.specs[len(w.specs)-1].Name = m.Name
	}
	return w
}

// TagQueries gives each query an id, prefix followed by a number, which
// is its Outcome.Tag: the server logs it under that id. Call it before the
// run.
func (w *Workload) TagQueries(prefix string) { w.idPrefix = prefix }

// Ops are the workload's operation names: the specs'.
func (w *Workload) Ops() []string {
	out := make([]string, len(w.specs))
	for i, s := range w.specs {
		out[i] = s.Name
	}
	return out
}

// next is the index of the next query's spec.
func (w *Workload) next() int {
	if len(w.specs) == 1 {
		return 0
	}
	return w.mix.pick(w.drawn.Add(1) - 1)
}

// NewWorker implements load.NewWorker.
func (w *Workload) NewWorker(_ context.Context, _ int, rng *rand.Rand) (load.Worker, error) {
	return &worker{w: w, rng: rng}, nil
}

type worker struct {
	w      *Workload
	rng    *rand.Rand
	phases load.Phases
}

func (k *worker) Do(ctx context.Context) (load.Outcome, error) {
	w := k.w
	op := w.next()
	spec := w.specs[op]
	text := spec.SQL
	var args []any
	if spec.Args != nil {
		args = spec.Args(k.rng)
	}
	if !w.prepared && len(args) > 0 {
		var err error
		if text, err = Inline(text, args); err != nil {
			return load.Outcome{Op: uint8(op)}, err
		}
		args = nil
	}
	var tag uint64
	if w.idPrefix != "" {
		tag = w.seq.Add(1)
		ctx = WithQueryID(ctx, w.idPrefix+strconv.FormatUint(tag, 10))
	}
	st, err := w.q.Query(ctx, text, args...)
	if err != nil && ctx.Err() != nil {
		// Cancelled at the end of the run (an interrupt): unfinished,
		// whatever the client made of its closed connection ("short
		// write" from clickhouse-go v1).
		return load.Outcome{Op: uint8(op)}, fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	if err != nil {
		if IsServerError(err) {
			w.noteServerError(text, err)
		}
		// Every path reconnects by itself (database/sql, v2 and ch-go
		// pools, net/http drop a broken connection and dial on the next
		// query); marking the libraries' "closed" errors makes the closed
		// loop back off while the server is away.
		return load.Outcome{Op: uint8(op)}, ch.Mark(err)
	}
	k.phases[0] = load.Phase(time.Duration(st.DecodeNs))
	if st.ClientNs > 0 {
		k.phases[1] = load.Phase(time.Duration(st.ClientNs)) // declared by externalPhases
	}
	return load.Outcome{Op: uint8(op), Rows: st.Rows, Bytes: st.Bytes, Phases: &k.phases, Tag: tag}, nil
}

func (w *Workload) noteServerError(text string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mu.serverErr == nil {
		w.mu.serverErr, w.mu.serverSQL = err, text
	}
	w.mu.serverN++
}

// ServerError describes the server errors of the run once, with the query
// that caused the first; nil when there were none.
func (w *Workload) ServerError() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mu.serverErr == nil {
		return nil
	}
	return fmt.Errorf("the server refused %d queries (warm-up included); the first was %q: %w", w.mu.serverN, w.mu.serverSQL, w.mu.serverErr)
}

// ErrUnsupported says a client cannot do what the options ask.
var ErrUnsupported = errors.New("not supported")
