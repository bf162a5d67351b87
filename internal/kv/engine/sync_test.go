package engine

import (
	"context"
	"testing"

	"github.com/tidwall/buntdb"
)

// The fsync label says what ran, both ways: with fsync off it names the
// switch as it was left, never the one fsync on sets.
func TestSyncLabels(t *testing.T) {
	tests := []struct {
		engine, on, off string
	}{
		{"badger", "Options.SyncWrites = true", "Options.SyncWrites = false (writes not synced)"},
		{"bbolt", "DB.NoSync = false (fdatasync per commit)", "DB.NoSync = true (no fdatasync on commit)"},
		{"bolt", "DB.NoSync = false (fdatasync per commit)", "DB.NoSync = true (no fdatasync on commit)"},
		{"goleveldb", "opt.WriteOptions{Sync: true}", "opt.WriteOptions{Sync: false} (journal not synced)"},
		{"pebble", "pebble.Sync write option (WAL fsync)", "pebble.NoSync write option (WAL not synced)"},
		{"rocksdb", "WriteOptions.SetSync(true)", "WriteOptions.SetSync(false) (WAL not synced)"},
		{"buntdb", "Config.SyncPolicy = buntdb.Always", "Config.SyncPolicy = buntdb.Never"},
		{"btree", "fsync of the append-only file after each write", "no fsync of the append-only file"},
		{"btree:memory", "none (memory engine)", "none (memory engine)"},
		{"map", "fsync of the append-only file after each write", "no fsync of the append-only file"},
		{"map:memory", "none (memory engine)", "none (memory engine)"},
		{"cznic/kv", "wait for the group commit (WAL fsync, once a second)", "no wait: acknowledged before the group commit (once a second) syncs it"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.engine] = true
		var e Engine
		for _, r := range engines().Entries() { // rocksdb too, built in or not
			if r.Name == tt.engine {
				e, e.Name = r.Value, r.Name
			}
		}
		for sync, want := range map[bool]string{true: tt.on, false: tt.off} {
			if got := e.SyncLabel(sync); got != want {
				t.Errorf("%s with fsync %v: fsync_switch %q, want %q", tt.engine, sync, got, want)
			}
		}
	}
	for _, e := range engines().Entries() {
		if e.Value.Open != nil && !seen[e.Name] {
			t.Errorf("engine %s has no fsync labels in this test", e.Name)
		}
	}
}

// The labels match what the engines do: each store opened with fsync off
// and on has its switch set as the label says, where the engine shows it.
func TestSyncSwitchesAsLabelled(t *testing.T) {
	for _, sync := range []bool{false, true} {
		for _, name := range []string{"bbolt", "bolt", "badger", "goleveldb", "pebble", "buntdb", "map", "btree", "cznic/kv"} {
			e, _ := Lookup(name)
			s, err := e.Open(context.Background(), Options{Dir: t.TempDir(), Sync: sync})
			if err != nil {
				t.Fatal(err)
			}
			var got bool
			switch s := s.(type) {
			case *bboltStore:
				got = !s.db.NoSync
			case *boltStore:
				got = !s.db.NoSync
			case *badgerStore:
				got = s.db.Opts().SyncWrites
			case *goleveldbStore:
				got = s.wo.Sync
			case *pebbleStore:
				got = s.wo.Sync
			case *buntdbStore:
				got = buntSyncs(t, s)
			case *memStore:
				got = s.aof.sync
			case treeStore:
				got = s.aof.sync
			case *cznicStore:
				got = s.sync
			default:
				t.Fatalf("%s: no check for %T", name, s)
			}
			if got != sync {
				t.Errorf("%s opened with fsync %v syncs: %v (label %q)", name, sync, got, e.SyncLabel(sync))
			}
			s.Close()
		}
	}
}

// buntSyncs reads buntdb's sync policy back from the open database.
func buntSyncs(t *testing.T, s *buntdbStore) bool {
	var cfg buntdb.Config
	if err := s.db.ReadConfig(&cfg); err != nil {
		t.Fatal(err)
	}
	return cfg.SyncPolicy == buntdb.Always
}
