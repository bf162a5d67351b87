package workload

import (
	"context"
	"math/rand/v2"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/load"
)

// Operation indexes of the mixed workload: its results are setmixed
// (the writer) and getmixed (the readers).
const (
	MixedSet = 0
	MixedGet = 1
)

// mixedWorkload is the seed's single-writer test: worker 0 writes fresh
// keys while every other worker reads preloaded ones. One run gives two
// results: setmixed (the writer) and getmixed (the readers).
type mixedWorkload struct {
	s     engine.Store
	d     *Data
	fresh *freshKeys
}

// NewMixed returns the mixed workload over s, which must be preloaded.
// It needs at least two workers. Call End after the run.
func NewMixed(s engine.Store, d *Data) (*mixedWorkload, error) {
	if d.Preloaded == 0 {
		return nil, errNoPreload
	}
	return &mixedWorkload{s: s, d: d, fresh: newFreshKeys(d, 1)}, nil
}

func (w *mixedWorkload) Ops() []string { return []string{"set", "get"} }

func (w *mixedWorkload) NewWorker(_ context.Context, id int, rng *rand.Rand) (load.Worker, error) {
	if id == 0 {
		return newSetter(w.s, w.fresh, 0, MixedSet, rng), nil
	}
	return newGetter(w.s, w.d, MixedGet, rng), nil
}

// End records the keys the writer wrote.
func (w *mixedWorkload) End() { w.fresh.End() }
