package engine_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/engine/kvtest"
)

func TestMain(m *testing.M) {
	if kvtest.CrashChild() {
		return
	}
	os.Exit(m.Run())
}

// TestEngines runs the conformance suite for every engine built in.
func TestEngines(t *testing.T) {
	for _, name := range engine.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, err := engine.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			kvtest.Run(t, e)
		})
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name    string
		wantErr string // "" for an engine every build has
	}{
		{"badger", ""},
		{"map:memory", ""},
		{"cznic/kv", ""},
		{"leveldb", `unknown engine "leveldb" (did you mean "goleveldb"?); known: badger, bbolt`}, // ErrUnknownEngine
	}
	for _, tt := range tests {
		_, err := engine.Lookup(tt.name)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("Lookup(%q) = %v, want the engine", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("Lookup(%q) = %v, want an error containing %q", tt.name, err, tt.wantErr)
		}
	}
}

// Without -tags rocksdb, asking for rocksdb must say how to get it, and
// its module is not listed.
func TestRocksDBTag(t *testing.T) {
	_, err := engine.Lookup("rocksdb")
	built := slices.Contains(engine.Names(), "rocksdb")
	switch {
	case built && err != nil:
		t.Fatalf("rocksdb is registered but Lookup fails: %v", err)
	case !built && (err == nil || err.Error() != "engine rocksdb is not built in (build with -tags rocksdb)"):
		t.Fatalf("Lookup(rocksdb) without the tag = %v", err)
	}
	// dbmeter version lists the binding only when the binary links it.
	if listed := slices.Contains(engine.Modules(), "github.com/linxGnu/grocksdb"); listed != built {
		t.Errorf("Modules() lists grocksdb: %v, rocksdb built in: %v", listed, built)
	}
}

// Every engine in the seed's list is either built in or says why not.
func TestEngineOrderCoversRegistry(t *testing.T) {
	want := []string{"badger", "bbolt", "bolt", "goleveldb", "pebble", "buntdb", "btree", "btree:memory", "map", "map:memory"}
	for _, n := range want {
		if !slices.Contains(engine.Names(), n) {
			t.Errorf("engine %s is not built in", n)
		}
	}
}
