package workload

import (
	"context"
	"math/rand/v2"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
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
	s engine.Store
	d *Data
}

// NewGet returns the get workload over s, which must be preloaded.
func NewGet(s engine.Store, d *Data) (*getWorkload, error) {
	if d.Preloaded == 0 {
		return nil, errNoPreload
	}
	return &getWorkload{s: s, d: d}, nil
}

func (w *getWorkload) Ops() []string { return []string{"get"} }

func (w *getWorkload) NewWorker(_ context.Context, _ int, rng *rand.Rand) (load.Worker, error) {
	return newGetter(w.s, w.d, 0, rng), nil
}

// picker chooses preloaded key indexes as --dist says.
type picker struct {
	n    uint64
	rng  *rand.Rand
	zipf *rand.Zipf // nil: uniform
}

func newPicker(d *Data, rng *rand.Rand) picker {
	p := picker{n: d.Preloaded, rng: rng}
	if d.Dist == "zipf" {
		p.zipf = rand.NewZipf(rng, zipfS, zipfV, d.Preloaded-1)
	}
	return p
}

func (p *picker) pick() uint64 {
	if p.zipf != nil {
		return p.zipf.Uint64() * scramble % p.n
	}
	return p.rng.Uint64N(p.n)
}

// getter reads preloaded keys into a buffer it reuses.
type getter struct {
	picker
	s   engine.Store
	op  uint8
	key []byte
	dst []byte
}

func newGetter(s engine.Store, d *Data, op uint8, rng *rand.Rand) *getter {
	return &getter{picker: newPicker(d, rng), s: s, op: op, key: make([]byte, d.KeySize), dst: make([]byte, 0, d.ValueSize)}
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
