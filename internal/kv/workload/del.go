package workload

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/load"
)

// Del deletes the preloaded keys in order, workers taking the next
// key from a shared counter. A kv matrix cell runs it in rounds (see
// package kv, delRounds): each round deletes some of the keys left, and once
// they are all gone the keys are put back, untimed, before the next round.
type Del struct {
	s       engine.Store
	d       *Data
	next    atomic.Uint64 // the next key to delete
	deleted atomic.Uint64 // acknowledged deletes, reported by the workers
}

// NewDel returns the del workload over s, which must be preloaded. Call
// End after the run: the keys deleted are gone.
func NewDel(s engine.Store, d *Data) (*Del, error) {
	if d.Preloaded == 0 {
		return nil, errNoPreload
	}
	return &Del{s: s, d: d}, nil
}

func (w *Del) Ops() []string { return []string{"del"} }

// Left is how many preloaded keys are not deleted yet.
func (w *Del) Left() uint64 { return w.d.Preloaded - min(w.next.Load(), w.d.Preloaded) }

func (w *Del) NewWorker(context.Context, int, *rand.Rand) (load.Worker, error) {
	return &deleter{w: w, key: make([]byte, w.d.KeySize)}, nil
}

// End takes the deleted keys off the held count.
func (w *Del) End() {
	w.d.Held -= w.deleted.Swap(0)
}

// Refilled starts over on s after the keys were put back (putting them
// back may have reopened the store).
func (w *Del) Refilled(s engine.Store) {
	w.s = s
	w.next.Store(0)
}

type deleter struct {
	w   *Del
	n   uint64 // acknowledged deletes
	key []byte
}

func (d *deleter) Do(context.Context) (load.Outcome, error) {
	i := d.w.next.Add(1) - 1
	if i >= d.w.d.Preloaded {
		return load.Outcome{}, fmt.Errorf("all %d preloaded keys are deleted: preload more keys or delete fewer", d.w.d.Preloaded)
	}
	putKey(d.key, i)
	if err := d.w.s.Delete(d.key); err != nil {
		return load.Outcome{}, err
	}
	d.n++
	return load.Outcome{Bytes: int64(len(d.key))}, nil
}

// Close reports the deletes.
func (d *deleter) Close() error {
	d.w.deleted.Add(d.n)
	return nil
}
