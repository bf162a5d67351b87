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
	// Sync names the engine's own durable-write switch as Options.Sync
	// sets it, and SyncOff the same switch as fsync off leaves it; both are
	// empty for memory engines, which keep nothing.
	Sync, SyncOff string
	Knobs         []Knob
}

// SyncLabel says what the engine's durable-write switch was in a run with
// fsync on (sync) or off.
func (e Engine) SyncLabel(sync bool) string {
	switch {
	case e.Sync == "":
		return "none (memory engine)"
	case sync:
		return e.Sync
	}
	return e.SyncOff
}

// Persistent reports whether the engine keeps its data in Options.Dir, so
// that it survives a close, and with Sync a crash.
func (e Engine) Persistent() bool { return e.Sync != "" }

// registry lists every engine dbmeter knows, one line each, in the order
// they are listed and run: the seed's columns, with pebble beside the other
// LSM engines. An engine this build cannot run has no Open (rocksdb needs
// cgo: rocksdb.go, built with -tags rocksdb, defines openRocksDB;
// norocksdb.go leaves it nil) and a reason in unavailable.
func registry() []Engine {
	return []Engine{
		{Name: "badger", Open: openBadger, Sync: "Options.SyncWrites = true", SyncOff: "Options.SyncWrites = false (writes not synced)", Knobs: badgerKnobs},
		{Name: "bbolt", Open: openBbolt, Sync: "DB.NoSync = false (fdatasync per commit)", SyncOff: "DB.NoSync = true (no fdatasync on commit)", Knobs: bboltKnobs},
		{Name: "bolt", Open: openBolt, Sync: "DB.NoSync = false (fdatasync per commit)", SyncOff: "DB.NoSync = true (no fdatasync on commit)", Knobs: boltKnobs},
		{Name: "goleveldb", Open: openGoLevelDB, Sync: "opt.WriteOptions{Sync: true}", SyncOff: "opt.WriteOptions{Sync: false} (journal not synced)", Knobs: goleveldbKnobs},
		{Name: "pebble", Open: openPebble, Sync: "pebble.Sync write option (WAL fsync)", SyncOff: "pebble.NoSync write option (WAL not synced)", Knobs: pebbleKnobs},
		{Name: "rocksdb", Open: openRocksDB, Sync: "WriteOptions.SetSync(true)", SyncOff: "WriteOptions.SetSync(false) (WAL not synced)", Knobs: rocksdbKnobs},
		{Name: "buntdb", Open: openBuntDB, Sync: "Config.SyncPolicy = buntdb.Always", SyncOff: "Config.SyncPolicy = buntdb.Never", Knobs: buntdbKnobs},
		{Name: "btree", Open: openBTreeAOF, Sync: "fsync of the append-only file after each write", SyncOff: "no fsync of the append-only file", Knobs: btreeKnobs},
		{Name: "btree:memory", Open: openBTreeMemory, Knobs: btreeKnobs},
		{Name: "map", Open: openMapAOF, Sync: "fsync of the append-only file after each write", SyncOff: "no fsync of the append-only file"},
		{Name: "map:memory", Open: openMapMemory},
		{Name: "cznic/kv", Open: openCznicKV, Sync: "wait for the group commit (WAL fsync, once a second)", SyncOff: "no wait: acknowledged before the group commit (once a second) syncs it"},
	}
}

// unavailable says why an engine without Open cannot run.
func unavailable(name string) string {
	switch name {
	case "rocksdb":
		return "not built in (build with -tags rocksdb)"
	}
	return "not built in"
}

// Names returns the engines built into this binary, in display order.
func Names() []string {
	var out []string
	for _, e := range registry() {
		if e.Open != nil {
			out = append(out, e.Name)
		}
	}
	return out
}

// Lookup returns the engine called name, or an error that says why it
// cannot be used and which engines can.
func Lookup(name string) (Engine, error) {
	for _, e := range registry() {
		if e.Name != name {
			continue
		}
		if e.Open == nil {
			return Engine{}, fmt.Errorf("engine %s is %s", name, unavailable(name))
		}
		return e, nil
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
	return slices.ContainsFunc(registry(), func(e Engine) bool { return e.Name == name })
}
