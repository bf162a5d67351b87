package workload

import (
	"context"
	"math/rand/v2"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/load"
)

// updateWorkload overwrites random preloaded keys (--dist picks them, as
// for get) with new values: the store keeps its key count, unlike set,
// which adds a key with every write.
type updateWorkload struct {
	s engine.Store
	d *Data
}

// NewUpdate returns the update workload over s, which must be preloaded.
func NewUpdate(s engine.Store, d *Data) (*updateWorkload, error) {
	if d.Preloaded == 0 {
		return nil, errNoPreload
	}
	return &updateWorkload{s: s, d: d}, nil
}

func (w *updateWorkload) Ops() []string { return []string{"update"} }

func (w *updateWorkload) NewWorker(_ context.Context, _ int, rng *rand.Rand) (load.Worker, error) {
	return &updater{picker: newPicker(w.d, rng), s: w.s, key: make([]byte, w.d.KeySize), val: newValue(rng, w.d.ValueSize)}, nil
}

// updater overwrites preloaded keys; each write's value differs from the
// last one, so no engine can skip an unchanged value.
type updater struct {
	picker
	s   engine.Store
	n   uint64 // writes done
	key []byte
	val []byte
}

func (u *updater) Do(context.Context) (load.Outcome, error) {
	putKey(u.key, u.pick())
	u.n++
	stamp(u.val, u.n)
	if err := u.s.Set(u.key, u.val); err != nil {
		return load.Outcome{}, err
	}
	return load.Outcome{Bytes: int64(len(u.key) + len(u.val))}, nil
}
