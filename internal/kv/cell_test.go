package kv

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/tidwall/buntdb"

	"github.com/dbmeter/dbmeter/internal/load"
)

// level0Files is how many tables an LSM engine has in level 0, where a
// flush puts them and where a get looks through every one; ok is false for
// an engine without levels.
func level0Files(t *testing.T, s Store) (int, bool) {
	switch s := s.(type) {
	case *pebbleStore:
		return int(s.db.Metrics().Levels[0].TablesCount), true
	case *goleveldbStore:
		v, err := s.db.GetProperty("leveldb.num-files-at-level0")
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatal(err)
		}
		return n, true
	}
	return 0, false
}

// heldKeys counts the keys 0 … d.next-1 the store really holds, by reading
// each: the check on Data.Held.
func heldKeys(t *testing.T, s Store, d *Data) uint64 {
	var n uint64
	key := make([]byte, d.KeySize)
	for i := range d.next {
		putKey(key, i)
		_, err := s.Get(key, nil)
		switch {
		case err == nil:
			n++
		case !errors.Is(err, ErrNotFound):
			t.Fatalf("get %s: %v", key, err)
		}
	}
	return n
}

// The state every cell starts from, on every engine: the preloaded keys
// and no other, an LSM tree with nothing left in level 0 (flushed and
// compacted), files on disk for an engine that keeps data (a copy of the
// preloaded store); and after a cell, the key count it records is the
// count the store holds, also after del rounds put the keys back.
func TestCellStartState(t *testing.T) {
	spec := DefaultSpec()
	spec.Keys, spec.Batch = 3000, 10
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := Lookup(name)
			ctx := context.Background()
			c, err := openCell(ctx, e, Options{Dir: t.TempDir()}, spec, 7)
			if err != nil {
				t.Fatal(err)
			}
			if e.Persistent() { // as a matrix does: a cell opens a copy of it
				if err := c.s.Close(); err != nil {
					t.Fatal(err)
				}
				if c, err = copyCell(ctx, e, Options{Dir: t.TempDir()}, spec, c.o.Dir); err != nil {
					t.Fatal(err)
				}
			}
			defer func() { c.s.Close() }()
			if got := heldKeys(t, c.s, c.d); got != 3000 || c.d.Held != 3000 {
				t.Fatalf("after openCell the store holds %d keys, counted %d; want the 3000 preloaded", got, c.d.Held)
			}
			if _, err := c.s.Get([]byte("000003000"), nil); !errors.Is(err, ErrNotFound) {
				t.Errorf("key 3000 before any write: %v, want not found", err)
			}
			if n, ok := level0Files(t, c.s); ok && n != 0 {
				t.Errorf("%d tables in level 0 after settling, want 0", n)
			}
			st, err := c.state()
			if err != nil {
				t.Fatal(err)
			}
			if e.Persistent() && st.bytes < int64(3000*spec.ValueSize) {
				t.Errorf("%d bytes on disk for 3000 values of %d bytes", st.bytes, spec.ValueSize)
			}
			if !e.Persistent() && st.bytes != 0 {
				t.Errorf("a memory engine takes %d bytes on disk", st.bytes)
			}

			// A set and a del on it: the count kept is the count held.
			cfg := load.DefaultConfig()
			cfg.Workers, cfg.Count, cfg.Duration, cfg.Warmup, cfg.Interval = 2, 500, 0, 0, 0
			ws := NewSet(c.s, c.d, cfg)
			if _, err := load.Run(ctx, cfg, ws.Ops(), ws.NewWorker, nil); err != nil {
				t.Fatal(err)
			}
			ws.End()
			wd, _ := NewDel(c.s, c.d)
			if _, _, err := c.delRounds(ctx, wd, cfg, nil); err != nil {
				t.Fatal(err)
			}
			if got := heldKeys(t, c.s, c.d); got != 3000 || c.d.Held != 3000 {
				t.Errorf("after 500 sets and 500 deletes the store holds %d keys, counted %d; want 3000", got, c.d.Held)
			}
		})
	}
}

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
		m := &Matrix{Spec: DefaultSpec()}
		for sync, want := range map[bool]string{true: tt.on, false: tt.off} {
			if got := m.params(e, nil, sync)["fsync_switch"]; got != want {
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
