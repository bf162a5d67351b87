package kv

import (
	"context"
	"math/rand/v2"

	"github.com/dbmeter/dbmeter/internal/load"
)

// Zipf parameters for --dist zipf: s slightly above 1 (Go's generator needs
// s > 1; YCSB's 0.99 is the usual target), v 1.
const (
	zipfS = 1.01
	zipfV = 1
)

// scramble spreads zipf ranks over the key space, so the hot keys are not
// neighbours (YCSB's scrambled zipfian). It is a prime, so i*scramble mod n
// visits every index for any n it does not divide.
const scramble = 2654435761

// getWorkload reads random preloaded keys.
type getWorkload struct {
	s Store
	d *Data
}

// NewGet returns the get workload over s, which must be preloaded.
func NewGet(s Store, d *Data) (*getWorkload, error) {
	if d.Preloaded == 0 {
		return nil, errNoPreload
	}
	return &getWorkload{s: s, d: d}, nil
}

func (w *getWorkload) Ops() []string { return []string{"get"} }

func (w *getWorkload) NewWorker(_ context.Context, _ int, rng *rand.Rand) (load.Worker, error) {
	return newGetter(w.s, w.d, 0, rng), nil
}

// getter reads preloaded keys into a buffer it reuses.
type getter struct {
	s    Store
	op   uint8
	n    uint64
	rng  *rand.Rand
	zipf *rand.Zipf // nil: uniform
	key  []byte
	dst  []byte
}

func newGetter(s Store, d *Data, op uint8, rng *rand.Rand) *getter {
	g := &getter{s: s, op: op, n: d.Preloaded, rng: rng, key: make([]byte, d.KeySize), dst: make([]byte, 0, d.ValueSize)}
	if d.Dist == "zipf" {
		g.zipf = rand.NewZipf(rng, zipfS, zipfV, d.Preloaded-1)
	}
	return g
}

func (g *getter) pick() uint64 {
	if g.zipf != nil {
		return g.zipf.Uint64() * scramble % g.n
	}
	return g.rng.Uint64N(g.n)
}

func (g *getter) Do(context.Context) (load.Outcome, error) {
	putKey(g.key, g.pick())
	v, err := g.s.Get(g.key, g.dst)
	g.dst = v[:0]
	if err != nil {
		return load.Outcome{Op: g.op}, err
	}
	return load.Outcome{Op: g.op, Bytes: int64(len(g.key) + len(v))}, nil
}
