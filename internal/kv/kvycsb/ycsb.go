// Package kvycsb runs YCSB's core workloads (package ycsb: generators,
// records and workload definitions) over a kv engine's Store: the load
// phase, timed or as an untimed preload, and workloads A to F, with the
// share of the requests the hottest records took.
package kvycsb

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/ycsb"
)

// The YCSB operations: ycsb-load is CoreWorkload's load phase, timed;
// ycsb-a … ycsb-f its workloads, each on a freshly loaded store.
const LoadOp = "ycsb-load"

var ycsbOps = []string{LoadOp, "ycsb-a", "ycsb-b", "ycsb-c", "ycsb-d", "ycsb-e", "ycsb-f"}

// Ops returns the YCSB operation names, in run order.
func Ops() []string { return slices.Clone(ycsbOps) }

// IsOp says whether op is one of YCSB's.
func IsOp(op string) bool { return slices.Contains(ycsbOps, op) }

// Spec is what the YCSB operations read besides the kv Spec's Keys, which
// is YCSB's recordcount.
type Spec struct {
	Record ycsb.Record
	// InsertOrder is "hashed" (YCSB's default) or "ordered".
	InsertOrder string
	// Distribution overrides every workload's request distribution; ""
	// keeps each workload's own.
	Distribution string
}

// DefaultSpec is YCSB's: ten 100-byte fields, hashed keys, each
// workload's distribution.
func DefaultSpec() Spec {
	return Spec{Record: ycsb.DefaultRecord(), InsertOrder: "hashed"}
}

// Validate reports the first setting that cannot work.
func (y Spec) Validate() error {
	if y.InsertOrder != "hashed" && y.InsertOrder != "ordered" {
		return fmt.Errorf("{InsertOrder} must be hashed or ordered, got %q", y.InsertOrder)
	}
	if y.Distribution != "" && !slices.Contains(ycsb.Distributions(), y.Distribution) {
		return fmt.Errorf("{Distribution}: unknown request distribution %q (known: %s)", y.Distribution, strings.Join(ycsb.Distributions(), ", "))
	}
	return y.Record.Validate()
}

// Layout is the record shape with the insert order applied.
func (y Spec) Layout() ycsb.Record {
	r := y.Record
	r.Ordered = y.InsertOrder == "ordered"
	return r
}

// Load is CoreWorkload's load phase: workers insert records 0 … n-1,
// one at a time, each taking the next number.
type Load struct {
	s    engine.Store
	rec  ycsb.Record
	n    int64
	next atomic.Int64
}

// NewLoad is the load phase of n records of rec into s.
func NewLoad(s engine.Store, rec ycsb.Record, n int64) *Load { return &Load{s: s, rec: rec, n: n} }

// Ops is the load phase's one operation.
func (l *Load) Ops() []string { return []string{"insert"} }

// NewWorker makes a worker of the load phase; it fits load.NewWorker.
func (l *Load) NewWorker(_ context.Context, _ int, rng *rand.Rand) (load.Worker, error) {
	key, val := make([]byte, 0, 32), make([]byte, l.rec.Size())
	return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
		n := l.next.Add(1) - 1
		if n >= l.n {
			return load.Outcome{}, fmt.Errorf("load: record %d of %d: the run made more inserts than records", n, l.n)
		}
		key = l.rec.AppendKey(key[:0], n)
		ycsb.Fill(rng, val)
		if err := l.s.Set(key, val); err != nil {
			return load.Outcome{}, err
		}
		return load.Outcome{Rows: 1, Bytes: int64(len(key) + len(val))}, nil
	}), nil
}

// Preload writes records 0 … n-1 in batches, untimed: the load phase of
// a workload cell, as fast as the engine takes it.
func Preload(ctx context.Context, s engine.Store, rec ycsb.Record, n int64, seed uint64) error {
	const chunk = 1000
	rng := load.Rand(seed, 1<<62)
	keys := make([][]byte, 0, chunk)
	vals := make([][]byte, 0, chunk)
	for start := int64(0); start < n; start += chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		keys, vals = keys[:0], vals[:0]
		for i := start; i < min(start+chunk, n); i++ {
			v := make([]byte, rec.Size())
			ycsb.Fill(rng, v)
			keys, vals = append(keys, rec.AppendKey(nil, i)), append(vals, v)
		}
		if err := engine.SetBatch(s, keys, vals); err != nil {
			return fmt.Errorf("load records %d-%d: %w", start, start+int64(len(keys))-1, err)
		}
	}
	return nil
}

// Workload is one of YCSB's workloads over a loaded store.
type Workload struct {
	s        engine.Store
	scanner  engine.Scanner // nil unless the workload scans
	w        ycsb.Workload
	rec      ycsb.Record
	keys     *ycsb.Keys
	inserted *ycsb.Counter
	heat     *heat
}

// NewWorkload prepares workload w over s, a store of engine name, which
// holds records 0 … records-1; spec's distribution overrides w's unless
// empty, and operationCount sizes the inserts the zipfian expects. A
// workload that scans needs a Scanner: an error matching
// engine.ErrNoOrder otherwise.
func NewWorkload(s engine.Store, name string, w ycsb.Workload, spec Spec, records, operationCount int64) (*Workload, error) {
	y := &Workload{s: s, w: w, rec: spec.Layout(), inserted: ycsb.NewCounter(records), heat: &heat{}}
	if w.Proportions[ycsb.Scan] > 0 {
		sc, ok := s.(engine.Scanner)
		if !ok {
			return nil, engine.ErrNoScan(name)
		}
		y.scanner = sc
	}
	dist := w.Distribution
	if spec.Distribution != "" {
		dist = spec.Distribution
	}
	keys, err := ycsb.NewKeys(dist, records, w.ExpectedNewKeys(operationCount), y.inserted)
	if err != nil {
		return nil, err
	}
	y.keys = keys
	return y, nil
}

// Ops are the workload's operations, in YCSB's order.
func (y *Workload) Ops() []string {
	var out []string
	for _, op := range y.w.Ops() {
		out = append(out, op.String())
	}
	return out
}

// Distribution names the request distribution the workload draws keys
// with.
func (y *Workload) Distribution() string { return y.keys.Distribution() }

// Measure starts (or stops) counting the records picked, for
// HottestShare: the measured window's, not the warm-up's.
func (y *Workload) Measure(on bool) { y.heat.measuring.Store(on) }

// HottestShare is the share of the picks the hottest 1% of the records
// took; ok is false when nothing was counted.
func (y *Workload) HottestShare(records int64) (share float64, ok bool) {
	return y.heat.hottestShare(records)
}

// NewWorker makes one worker of the workload; it fits load.NewWorker.
func (y *Workload) NewWorker(_ context.Context, _ int, rng *rand.Rand) (load.Worker, error) {
	w := &ycsbWorker{y: y, rng: rng, ops: y.w.Ops(), choose: y.w.OpChooser(), keys: y.keys.Chooser(), scanLen: y.w.ScanLength(),
		key: make([]byte, 0, 32), val: make([]byte, 0, y.rec.Size()), ins: make([]byte, y.rec.Size())}
	w.visit = func(k, v []byte) { w.scanned += int64(len(k) + len(v)) }
	return w, nil
}

// ycsbWorker runs one worker's transactions, as CoreWorkload.doTransaction
// does, into buffers it reuses.
type ycsbWorker struct {
	y       *Workload
	rng     *rand.Rand
	ops     []ycsb.Op
	choose  ycsb.OpChooser
	keys    *ycsb.KeyChooser
	scanLen ycsb.Uniform
	key     []byte
	val     []byte // the record read or updated
	ins     []byte // the record inserted
	visit   func(k, v []byte)
	scanned int64
	counts  heatCounts
}

func (w *ycsbWorker) Do(context.Context) (load.Outcome, error) {
	i := w.choose.Next(w.rng)
	out := load.Outcome{Op: uint8(i), Rows: 1}
	var err error
	switch w.ops[i] {
	case ycsb.Read:
		err = w.read(w.pick())
		out.Bytes = int64(len(w.key) + len(w.val))
	case ycsb.Update:
		err = w.update(w.pick())
		out.Bytes = int64(len(w.key) + 2*len(w.val))
	case ycsb.ReadModifyWrite:
		// YCSB reads the record, then updates it; an update of a record
		// held as one value reads it again, as YCSB's key/value bindings do.
		n := w.pick()
		if err = w.read(n); err == nil {
			err = w.update(n)
		}
		out.Bytes = int64(2*len(w.key) + 3*len(w.val))
	case ycsb.Scan:
		w.key = w.y.rec.AppendKey(w.key[:0], w.pick())
		w.scanned = 0
		var n int
		n, err = w.y.scanner.Scan(w.key, int(w.scanLen.Next(w.rng)), w.visit)
		out.Rows, out.Bytes = int64(n), w.scanned
	case ycsb.Insert:
		err = w.insert()
		out.Bytes = int64(len(w.key) + len(w.ins))
	}
	if err != nil {
		out.Rows, out.Bytes = 0, 0
	}
	return out, err
}

// pick chooses an existing record and counts it for the heat figure.
func (w *ycsbWorker) pick() int64 {
	n := w.keys.Next(w.rng)
	if w.y.heat.measuring.Load() {
		w.counts.add(n)
	}
	return n
}

func (w *ycsbWorker) read(n int64) error {
	w.key = w.y.rec.AppendKey(w.key[:0], n)
	v, err := w.y.s.Get(w.key, w.val[:0])
	w.val = v
	if err != nil {
		return fmt.Errorf("read %s: %w", w.key, err)
	}
	return nil
}

// update rewrites one field of record n: a read of the record and a write
// of it whole.
func (w *ycsbWorker) update(n int64) error {
	if err := w.read(n); err != nil {
		return err
	}
	if len(w.val) != w.y.rec.Size() {
		return fmt.Errorf("update %s: the record has %d bytes, want %d", w.key, len(w.val), w.y.rec.Size())
	}
	w.y.rec.UpdateField(w.rng, w.val)
	return w.y.s.Set(w.key, w.val)
}

// insert writes the next new record. Its number is acknowledged even when
// the write fails, as YCSB does, so that one failure does not keep readers
// off every later record.
func (w *ycsbWorker) insert() error {
	n := w.y.inserted.Next()
	w.key = w.y.rec.AppendKey(w.key[:0], n)
	ycsb.Fill(w.rng, w.ins)
	err := w.y.s.Set(w.key, w.ins)
	return errors.Join(err, w.y.inserted.Acknowledge(n))
}

// Close hands the worker's counts to the workload.
func (w *ycsbWorker) Close() error {
	w.y.heat.merge(&w.counts)
	return nil
}
