package engine

import (
	"path/filepath"

	"github.com/dbmeter/dbmeter/internal/registry"
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
	// Immutable are patterns (filepath.Match, on a file's name) of the
	// files the engine never changes once written, only reads and in the
	// end deletes: an LSM tree's tables. A cell's copy of the preloaded
	// store links them to the template's instead of copying their bytes
	// (TestTemplateUnchangedByCells checks the engine keeps its word,
	// through a compaction that deletes them). Not badger's: it truncates
	// a table to 0 bytes before it removes it, which would empty the
	// template's.
	Immutable []string
}

// NeverChanges reports whether the engine never changes a file called
// name once written (Immutable).
func (e Engine) NeverChanges(name string) bool {
	for _, p := range e.Immutable {
		if ok, _ := filepath.Match(p, name); ok {
			return true
		}
	}
	return false
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

// engines is every engine dbmeter knows, one line each, in the order they
// are listed and run: the seed's columns, with pebble beside the other LSM
// engines. An engine this build cannot run says why in Missing (rocksdb
// needs cgo: rocksdb.go, built with -tags rocksdb, defines openRocksDB and
// an empty rocksdbMissing; norocksdb.go leaves openRocksDB nil).
func engines() registry.Registry[Engine] {
	return registry.New("engine", []registry.Entry[Engine]{
		{Name: "badger", Modules: []string{"github.com/dgraph-io/badger/v4"}, Value: Engine{Open: openBadger, Sync: "Options.SyncWrites = true", SyncOff: "Options.SyncWrites = false (writes not synced)", Knobs: badgerKnobs}},
		{Name: "bbolt", Modules: []string{"go.etcd.io/bbolt"}, Value: Engine{Open: openBbolt, Sync: "DB.NoSync = false (fdatasync per commit)", SyncOff: "DB.NoSync = true (no fdatasync on commit)", Knobs: bboltKnobs}},
		{Name: "bolt", Modules: []string{"github.com/boltdb/bolt"}, Value: Engine{Open: openBolt, Sync: "DB.NoSync = false (fdatasync per commit)", SyncOff: "DB.NoSync = true (no fdatasync on commit)", Knobs: boltKnobs}},
		{Name: "goleveldb", Modules: []string{"github.com/syndtr/goleveldb"}, Value: Engine{Open: openGoLevelDB, Sync: "opt.WriteOptions{Sync: true}", SyncOff: "opt.WriteOptions{Sync: false} (journal not synced)", Knobs: goleveldbKnobs, Immutable: []string{"*.ldb", "*.sst"}}},
		{Name: "pebble", Modules: []string{"github.com/cockroachdb/pebble/v2"}, Value: Engine{Open: openPebble, Sync: "pebble.Sync write option (WAL fsync)", SyncOff: "pebble.NoSync write option (WAL not synced)", Knobs: pebbleKnobs, Immutable: []string{"*.sst"}}},
		{Name: "rocksdb", Modules: []string{"github.com/linxGnu/grocksdb"}, Missing: rocksdbMissing, Value: Engine{Open: openRocksDB, Sync: "WriteOptions.SetSync(true)", SyncOff: "WriteOptions.SetSync(false) (WAL not synced)", Knobs: rocksdbKnobs, Immutable: []string{"*.sst"}}},
		{Name: "buntdb", Modules: []string{"github.com/tidwall/buntdb"}, Value: Engine{Open: openBuntDB, Sync: "Config.SyncPolicy = buntdb.Always", SyncOff: "Config.SyncPolicy = buntdb.Never", Knobs: buntdbKnobs}},
		{Name: "btree", Modules: []string{"github.com/google/btree"}, Value: Engine{Open: openBTreeAOF, Sync: "fsync of the append-only file after each write", SyncOff: "no fsync of the append-only file", Knobs: btreeKnobs}},
		{Name: "btree:memory", Modules: []string{"github.com/google/btree"}, Value: Engine{Open: openBTreeMemory, Knobs: btreeKnobs}},
		{Name: "map", Value: Engine{Open: openMapAOF, Sync: "fsync of the append-only file after each write", SyncOff: "no fsync of the append-only file"}},
		{Name: "map:memory", Value: Engine{Open: openMapMemory}},
		{Name: "cznic/kv", Modules: []string{"modernc.org/kv", "modernc.org/lldb"}, Value: Engine{Open: openCznicKV, Sync: "wait for the group commit (WAL fsync, once a second)", SyncOff: "no wait: acknowledged before the group commit (once a second) syncs it"}},
	})
}

// Names returns the engines built into this binary, in display order.
func Names() []string { return engines().Names() }

// Modules lists the Go modules of the engines built into this binary.
func Modules() []string { return engines().Modules() }

// Lookup returns the engine called name, or an error that says why it
// cannot be used and which engines can.
func Lookup(name string) (Engine, error) {
	e, err := engines().Lookup(name)
	if err != nil {
		return Engine{}, err
	}
	e.Name = name
	return e, nil
}

// ErrUnknownEngine is the error Lookup's error matches for a name dbmeter
// does not know at all (as opposed to one this build cannot run).
var ErrUnknownEngine = registry.ErrUnknown

// ResolveParams returns every knob of e with its value, the user's where
// given (without the engine prefix), the default otherwise. Unknown keys
// are an error.
func (e Engine) ResolveParams(given map[string]string) (map[string]string, error) {
	return resolveKnobs(e.Name, e.Knobs, given)
}

// knownEngine reports whether name is an engine dbmeter knows, built in or
// not.
func knownEngine(name string) bool { return engines().Known(name) }
