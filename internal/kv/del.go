package kv

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/dbmeter/dbmeter/internal/load"
)

// delWorkload deletes each preloaded key once, in order, workers taking
// the next key from a shared counter.
type delWorkload struct {
	s    Store
	d    *Data
	next atomic.Uint64
}

// NewDel returns the del workload over s, which must be preloaded. Call
// End after the run: the keys are gone.
func NewDel(s Store, d *Data) (*delWorkload, error) {
	if d.Preloaded == 0 {
		return nil, errNoPreload
	}
	return &delWorkload{s: s, d: d}, nil
}

func (w *delWorkload) Ops() []string { return []string{"del"} }

func (w *delWorkload) NewWorker(_ context.Context, _ int, _ *rand.Rand) (load.Worker, error) {
	key := make([]byte, w.d.KeySize)
	n := w.d.Preloaded
	return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
		i := w.next.Add(1) - 1
		if i >= n {
			return load.Outcome{}, fmt.Errorf("all %d preloaded keys are deleted: raise --keys or lower --count", n)
		}
		putKey(key, i)
		if err := w.s.Delete(key); err != nil {
			return load.Outcome{}, err
		}
		return load.Outcome{Bytes: int64(len(key))}, nil
	}), nil
}

// End records that the preloaded keys are gone.
func (w *delWorkload) End() { w.d.Preloaded = 0 }
