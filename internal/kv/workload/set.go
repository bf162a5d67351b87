package workload

import (
	"context"
	"math/rand/v2"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/load"
)

// setWorkload writes distinct, never-written keys: the key space is
// striped between workers.
type setWorkload struct {
	s     engine.Store
	fresh *freshKeys
}

// NewSet returns the set workload over s. Call End after the run.
func NewSet(s engine.Store, d *Data, cfg load.Config) *setWorkload {
	return &setWorkload{s: s, fresh: newFreshKeys(d, stripesFor(cfg))}
}

func (w *setWorkload) Ops() []string { return []string{"set"} }

func (w *setWorkload) NewWorker(_ context.Context, id int, rng *rand.Rand) (load.Worker, error) {
	return newSetter(w.s, w.fresh, id, 0, rng), nil
}

// End records the keys written, so later workloads write past them.
func (w *setWorkload) End() { w.fresh.End() }

// setter is one writer of fresh keys.
type setter struct {
	s     engine.Store
	fresh *freshKeys
	id    int
	op    uint8
	k     uint64 // writes done
	key   []byte
	val   []byte
}

func newSetter(s engine.Store, f *freshKeys, id int, op uint8, rng *rand.Rand) *setter {
	return &setter{s: s, fresh: f, id: id, op: op, key: make([]byte, f.data.KeySize), val: newValue(rng, f.data.ValueSize)}
}

func (w *setter) Do(context.Context) (load.Outcome, error) {
	i, err := w.fresh.index(w.id, w.k)
	if err != nil {
		return load.Outcome{Op: w.op}, err
	}
	putKey(w.key, i)
	stamp(w.val, i)
	if err := w.s.Set(w.key, w.val); err != nil {
		return load.Outcome{Op: w.op}, err
	}
	w.k++
	return load.Outcome{Op: w.op, Bytes: int64(len(w.key) + len(w.val))}, nil
}

// Close reports how far this writer got.
func (w *setter) Close() error {
	if w.k > 0 {
		last, _ := w.fresh.index(w.id, w.k-1)
		w.fresh.done(last+1, w.k)
	}
	return nil
}
