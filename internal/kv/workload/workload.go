package workload

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/load"
)

// Spec says what the workloads read and write. The zero value is not
// valid; start from DefaultSpec.
type Spec struct {
	// Keys are preloaded before get, del and the mixed pair (not timed).
	Keys      int
	KeySize   int    // bytes; keys are zero-padded decimal indexes
	ValueSize int    // bytes
	Dist      string // how get picks keys: "uniform" or "zipf"
	Batch     int    // keys per batchset operation
}

// Spec defaults: the seed's 9-byte keys and 256-byte values.
const (
	DefaultKeys      = 20_000
	DefaultKeySize   = 9
	DefaultValueSize = 256
	DefaultBatch     = 100
)

// DefaultSpec returns the seed's sizes, uniform reads and batches of 100.
func DefaultSpec() Spec {
	return Spec{Keys: DefaultKeys, KeySize: DefaultKeySize, ValueSize: DefaultValueSize, Dist: "uniform", Batch: DefaultBatch}
}

// Validate reports the first setting that cannot work.
func (s Spec) Validate() error {
	switch {
	case s.Keys < 1:
		return fmt.Errorf("{Keys} must be at least 1, got %d", s.Keys)
	case s.KeySize < 1 || s.KeySize > maxKeySize:
		return fmt.Errorf("{KeySize} must be 1 to %d bytes, got %d", maxKeySize, s.KeySize)
	case uint64(s.Keys) > keyCapacity(s.KeySize)/2:
		return fmt.Errorf("%d keys need more than %d-byte keys (half the key space is kept for new writes): raise {KeySize}", s.Keys, s.KeySize)
	case s.ValueSize < 0:
		return fmt.Errorf("{ValueSize} must not be negative, got %d", s.ValueSize)
	case s.Dist != "uniform" && s.Dist != "zipf":
		return fmt.Errorf("{Dist}: unknown key distribution %q (known: uniform, zipf)", s.Dist)
	case s.Batch < 1:
		return fmt.Errorf("{Batch} must be at least 1 key, got %d", s.Batch)
	}
	return nil
}

// Workload is one benchmark over a store. It is made fresh for each run.
type Workload interface {
	// Ops names the operations its workers report; Outcome.Op indexes it.
	Ops() []string
	// NewWorker makes the workers of one load.Run.
	NewWorker(ctx context.Context, id int, rng *rand.Rand) (load.Worker, error)
}

// Data is what a store holds between the workloads run on it: the
// preloaded keys and where never-written keys begin.
type Data struct {
	Spec
	// Preloaded keys are 0 … Preloaded-1.
	Preloaded uint64
	// Held counts the keys the store holds: the preloaded ones, plus every
	// acknowledged write of a new key, minus every acknowledged delete.
	// Workloads add theirs in End.
	Held uint64
	// next is the first index no workload has written.
	next uint64
}

// NewData describes an empty store: new writes start past the keys a
// preload would use.
func NewData(spec Spec) *Data {
	return &Data{Spec: spec, next: uint64(spec.Keys)}
}

// Preload writes keys 0 … Keys-1 in batches. It is not timed.
func (d *Data) Preload(ctx context.Context, s engine.Store, seed uint64) error {
	const chunk = 1000
	rng := load.Rand(seed, 1<<62)
	// One chunk's keys and values, filled afresh for each batch: a store
	// copies what it keeps (engine.Store), so a million keys need not be
	// allocated twice, here and in the store.
	keys := make([][]byte, chunk)
	vals := make([][]byte, chunk)
	for i := range chunk {
		keys[i], vals[i] = make([]byte, d.KeySize), make([]byte, d.ValueSize)
	}
	for start := 0; start < d.Keys; start += chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(chunk, d.Keys-start)
		for i := range n {
			putKey(keys[i], uint64(start+i))
			fillValue(rng, vals[i])
		}
		if err := engine.SetBatch(s, keys[:n], vals[:n]); err != nil {
			return fmt.Errorf("preload keys %d-%d: %w", start, start+n-1, err)
		}
	}
	d.Preloaded, d.Held = uint64(d.Keys), uint64(d.Keys)
	return nil
}

// newValue returns size random bytes: incompressible, so engines that
// compress are not flattered.
func newValue(rng *rand.Rand, size int) []byte {
	v := make([]byte, size)
	fillValue(rng, v)
	return v
}

// fillValue fills v with random bytes, eight a draw: the preload of every
// memory engine's cell makes its values afresh, and a draw a byte made
// that most of its cost.
func fillValue(rng *rand.Rand, v []byte) {
	for i := 0; i < len(v); i += 8 {
		x := rng.Uint64()
		for j := i; j < min(i+8, len(v)); j++ {
			v[j] = byte(x)
			x >>= 8
		}
	}
}

// stamp writes i into the first bytes of value so that each key's value
// differs, without a new random fill per write.
func stamp(value []byte, i uint64) {
	for j := 0; j < 8 && j < len(value); j++ {
		value[j] = byte(i >> (8 * j))
	}
}

// freshKeys hands out never-written key indexes: worker id of stripes
// writes base+id, base+id+stripes, …, so workers never share a key and need
// no lock. Each writer reports its highest index when closed, and End moves
// the data's next index past all of them.
type freshKeys struct {
	data    *Data
	base    uint64
	stripes uint64
	mu      struct {
		sync.Mutex
		end     uint64
		written uint64 // acknowledged writes, all of new keys
	}
}

func newFreshKeys(d *Data, stripes int) *freshKeys {
	f := &freshKeys{data: d, base: d.next, stripes: uint64(stripes)}
	f.mu.end = d.next
	return f
}

// index is the key index of worker id's k-th write.
func (f *freshKeys) index(id int, k uint64) (uint64, error) {
	i := f.base + k*f.stripes + uint64(id)
	if i >= keyCapacity(f.data.KeySize) {
		return 0, errKeysExhausted(f.data.KeySize)
	}
	return i, nil
}

// done records that a worker wrote n keys, up to index end-1.
func (f *freshKeys) done(end, n uint64) {
	f.mu.Lock()
	f.mu.end = max(f.mu.end, end)
	f.mu.written += n
	f.mu.Unlock()
}

// End moves the data's next index past every key written and counts them
// as held.
func (f *freshKeys) End() {
	f.mu.Lock()
	f.data.next = max(f.data.next, f.mu.end)
	f.data.Held += f.mu.written
	f.mu.written = 0
	f.mu.Unlock()
}

// stripesFor is how many distinct workers a run may make: in open loop the
// runner makes more on demand, up to MaxInFlight.
func stripesFor(cfg load.Config) int {
	if cfg.Open() {
		return max(cfg.Workers, cfg.MaxInFlight)
	}
	return cfg.Workers
}

// errNoPreload is returned by workloads that read preloaded keys when there
// are none.
var errNoPreload = errors.New("no preloaded keys: the store was not preloaded")

// CountHeld counts the keys 0 … the last written that s really holds, by
// reading each: the check on d.Held.
func CountHeld(s engine.Store, d *Data) (uint64, error) {
	var n uint64
	key := make([]byte, d.KeySize)
	for i := range d.next {
		putKey(key, i)
		_, err := s.Get(key, nil)
		switch {
		case err == nil:
			n++
		case !errors.Is(err, engine.ErrNotFound):
			return n, fmt.Errorf("get %s: %w", key, err)
		}
	}
	return n, nil
}
