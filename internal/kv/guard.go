package kv

import (
	"fmt"
	"runtime/debug"

	"github.com/dbmeter/dbmeter/internal/load"
)

// KindEngineFailure counts operations in which the engine panicked or hit
// a memory fault (pebble panics when its WAL cannot be written; badger's
// mmap faults when the disk is full). A failing disk must show as errors in
// the result, not as a crashed benchmark that loses every other engine's
// numbers.
const KindEngineFailure = "engine_failure"

// guard wraps s so that a panic or fault inside an operation becomes that
// operation's error.
func guard(s Store) Store {
	if b, ok := s.(Batcher); ok {
		return guardedBatcher{guarded{s}, b}
	}
	return guarded{s}
}

type guarded struct{ s Store }

type guardedBatcher struct {
	guarded
	b Batcher
}

var (
	_ Store   = guarded{}
	_ Batcher = guardedBatcher{}
)

// recovered turns a panic into *err. SetPanicOnFault makes a fault in the
// engine's mapped memory a panic too (for the calling goroutine), instead
// of killing the process.
func recovered(old bool, err *error) {
	debug.SetPanicOnFault(old)
	if r := recover(); r != nil {
		*err = load.WithKind(fmt.Errorf("engine failed: %v", r), KindEngineFailure)
	}
}

func (g guarded) Get(key, dst []byte) (v []byte, err error) {
	defer recovered(debug.SetPanicOnFault(true), &err)
	return g.s.Get(key, dst)
}

func (g guarded) Set(key, value []byte) (err error) {
	defer recovered(debug.SetPanicOnFault(true), &err)
	return g.s.Set(key, value)
}

func (g guarded) Delete(key []byte) (err error) {
	defer recovered(debug.SetPanicOnFault(true), &err)
	return g.s.Delete(key)
}

func (g guarded) Close() (err error) {
	defer recovered(debug.SetPanicOnFault(true), &err)
	return g.s.Close()
}

func (g guardedBatcher) SetBatch(keys, values [][]byte) (err error) {
	defer recovered(debug.SetPanicOnFault(true), &err)
	return g.b.SetBatch(keys, values)
}
