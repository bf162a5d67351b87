package workload

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"sync/atomic"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/load"
)

// HarnessKeySize is the size of seed 004's harness keys: 'k' and the
// number as 8 big-endian bytes.
const HarnessKeySize = 9

// PutHarnessKey writes key number i as seed 004's harness wrote it
// (smallnest/kvbench, cmd/cli/main.go): 'k' then i as 8 big-endian bytes.
// key must be HarnessKeySize long.
func PutHarnessKey(key []byte, i uint64) {
	key[0] = 'k'
	binary.BigEndian.PutUint64(key[1:], i)
}

// HarnessKey is the number goroutine j uses for its k-th operation (k from
// 0) in the harness: it starts at j and adds j each time, so goroutine 0
// uses key 0 every time and the goroutines' keys overlap (12 is used by
// goroutines 1, 2, 3, 4, 6 and 12).
func HarnessKey(j, k uint64) uint64 { return j * (k + 1) }

// HarnessPhase is one of the harness's concurrent phases (set, get or del)
// over one store: worker j does its operations on HarnessKey(j, 0),
// HarnessKey(j, 1), … The run's count, split over the workers, is the
// harness's n / c each.
type HarnessPhase struct {
	s     engine.Store
	op    string
	value int
	// Misses counts gets of keys the store did not hold (none when set ran
	// before with the same count and workers).
	Misses atomic.Int64
}

// NewHarnessPhase returns phase op (set, get or del) over s, with values of
// valueSize bytes for set.
func NewHarnessPhase(s engine.Store, op string, valueSize int) (*HarnessPhase, error) {
	switch op {
	case "set", "get", "del":
		return &HarnessPhase{s: s, op: op, value: valueSize}, nil
	}
	return nil, errors.New("the harness shape has no phase " + op)
}

func (h *HarnessPhase) Ops() []string { return []string{h.op} }

func (h *HarnessPhase) NewWorker(_ context.Context, id int, rng *rand.Rand) (load.Worker, error) {
	return &harnessWorker{h: h, j: uint64(id), key: make([]byte, HarnessKeySize), val: newValue(rng, h.value)}, nil
}

// harnessWorker is goroutine j of a harness phase.
type harnessWorker struct {
	h   *HarnessPhase
	j   uint64
	k   uint64 // operations done
	key []byte
	val []byte // set's value; get's buffer
}

func (w *harnessWorker) Do(context.Context) (load.Outcome, error) {
	PutHarnessKey(w.key, HarnessKey(w.j, w.k))
	w.k++
	var err error
	switch w.h.op {
	case "set":
		err = w.h.s.Set(w.key, w.val)
	case "get":
		w.val, err = w.h.s.Get(w.key, w.val)
		if errors.Is(err, engine.ErrNotFound) {
			// The harness counted a missing key as a read like any other.
			w.h.Misses.Add(1)
			err = nil
		}
	case "del":
		err = w.h.s.Delete(w.key)
	}
	if err != nil {
		return load.Outcome{}, err
	}
	return load.Outcome{Bytes: int64(len(w.key) + len(w.val))}, nil
}

// HarnessWriter is the harness's mixed-phase writer: one goroutine that
// sets keys 0, 1, 2, … while the readers run.
type HarnessWriter struct {
	s   engine.Store
	n   uint64
	key []byte
	val []byte
}

// NewHarnessWriter returns the mixed phase's writer over s.
func NewHarnessWriter(s engine.Store, valueSize int, rng *rand.Rand) *HarnessWriter {
	return &HarnessWriter{s: s, key: make([]byte, HarnessKeySize), val: newValue(rng, valueSize)}
}

// Set writes the next key.
func (w *HarnessWriter) Set() error {
	PutHarnessKey(w.key, w.n)
	w.n++
	return w.s.Set(w.key, w.val)
}
