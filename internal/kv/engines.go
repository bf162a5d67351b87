package kv

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Engine is one registered engine.
type Engine struct {
	Name string
	Open Opener
	// Sync names the engine's own durable-write switch that Options.Sync
	// turns on; it is empty for memory engines, which keep nothing.
	Sync  string
	Knobs []Knob
}

// Persistent reports whether the engine keeps its data in Options.Dir, so
// that it survives a close, and with Sync a crash.
func (e Engine) Persistent() bool { return e.Sync != "" }

// engines is the registry: one line per engine. The rocksdb engine adds
// itself from rocksdb.go when built with -tags rocksdb, since it needs cgo.
var engines = map[string]Engine{
	"badger":       {Open: openBadger, Sync: "Options.SyncWrites = true", Knobs: badgerKnobs},
	"bbolt":        {Open: openBbolt, Sync: "DB.NoSync = false (fdatasync per commit)", Knobs: bboltKnobs},
	"bolt":         {Open: openBolt, Sync: "DB.NoSync = false (fdatasync per commit)", Knobs: boltKnobs},
	"goleveldb":    {Open: openGoLevelDB, Sync: "opt.WriteOptions{Sync: true}", Knobs: goleveldbKnobs},
	"pebble":       {Open: openPebble, Sync: "pebble.Sync write option (WAL fsync)", Knobs: pebbleKnobs},
	"buntdb":       {Open: openBuntDB, Sync: "Config.SyncPolicy = buntdb.Always", Knobs: buntdbKnobs},
	"btree":        {Open: openBTreeAOF, Sync: "fsync of the append-only file after each write", Knobs: btreeKnobs},
	"btree:memory": {Open: openBTreeMemory, Knobs: btreeKnobs},
	"map":          {Open: openMapAOF, Sync: "fsync of the append-only file after each write"},
	"map:memory":   {Open: openMapMemory},
}

// order is how engines are listed and run: the seed's columns, with pebble
// beside the other LSM engines.
var order = []string{"badger", "bbolt", "bolt", "goleveldb", "pebble", "rocksdb", "buntdb", "btree", "btree:memory", "map", "map:memory"}

// unavailable names engines dbmeter knows of but this build cannot run.
var unavailable = map[string]string{
	"rocksdb":  "not built in (build with -tags rocksdb)",
	"cznic/kv": "unavailable: github.com/cznic/kv is not served by the Go module proxy",
}

// Names returns the engines built into this binary, in display order.
func Names() []string {
	var out []string
	for _, n := range order {
		if _, ok := engines[n]; ok {
			out = append(out, n)
		}
	}
	return out
}

// Lookup returns the engine called name, or an error that says why it
// cannot be used and which engines can.
func Lookup(name string) (Engine, error) {
	if e, ok := engines[name]; ok {
		e.Name = name
		return e, nil
	}
	if why, ok := unavailable[name]; ok {
		return Engine{}, fmt.Errorf("engine %s is %s", name, why)
	}
	return Engine{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownEngine, name, strings.Join(Names(), ", "))
}

// ErrUnknownEngine is the error Lookup wraps for a name dbmeter does not
// know at all (as opposed to one this build cannot run).
var ErrUnknownEngine = errors.New("unknown engine")

// ResolveParams returns every knob of e with its value, the user's where
// given (without the engine prefix), the default otherwise. Unknown keys
// are an error.
func (e Engine) ResolveParams(given map[string]string) (map[string]string, error) {
	return resolveKnobs(e.Name, e.Knobs, given)
}

// knownEngine reports whether name is an engine dbmeter knows, built in or
// not.
func knownEngine(name string) bool {
	_, ok := unavailable[name]
	return ok || slices.Contains(order, name)
}
