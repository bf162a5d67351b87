package kv_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/usage"
)

func TestCheckOps(t *testing.T) {
	tests := []struct {
		in      []string
		want    []string
		wantErr string
	}{
		// Run order is fixed whatever the order given.
		{in: []string{"del", "get", "update", "set"}, want: []string{"set", "update", "get", "del"}},
		{in: []string{"getmixed", "getmixed"}, want: []string{"getmixed"}},
		{in: []string{"set", "scan"}, wantErr: `unknown operation "scan" (known: set, update, get, setmixed, getmixed, batchset, del, ycsb-load, ycsb-a, ycsb-b, ycsb-c, ycsb-d, ycsb-e, ycsb-f)`},
	}
	for _, tt := range tests {
		got, err := kv.CheckOps(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("CheckOps(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !cmp.Equal(got, tt.want) {
			t.Errorf("CheckOps(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestSplitParams(t *testing.T) {
	tests := []struct {
		in      []string
		want    map[string]map[string]string
		wantErr string
	}{
		{in: nil, want: map[string]map[string]string{}},
		{
			in:   []string{"badger.value_threshold=64", "pebble.memtable_size=1048576", "btree:memory.degree=8"},
			want: map[string]map[string]string{"badger": {"value_threshold": "64"}, "pebble": {"memtable_size": "1048576"}, "btree:memory": {"degree": "8"}},
		},
		// A typo in a key fails at once, naming the known keys.
		{in: []string{"badger.value_treshold=64"}, wantErr: "unknown parameter badger.value_treshold (known: badger.block_cache_size, badger.mem_table_size, badger.num_compactors, badger.value_threshold)"},
		{in: []string{"badger.value_threshold=1k"}, wantErr: `parameter badger.value_threshold="1k": want a whole number of at least 0`},
		{in: []string{"bbolt.freelist_type=tree"}, wantErr: "want one of array, map"},
		{in: []string{"map.x=1"}, wantErr: "unknown parameter map.x (map has no parameters)"},
		{in: []string{"mongo.x=1"}, wantErr: `unknown engine "mongo"`},
		{in: []string{"badger"}, wantErr: "want engine.key=value"},
		{in: []string{"badger.=1"}, wantErr: "want engine.key=value"},
	}
	for _, tt := range tests {
		got, err := kv.SplitParams(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("SplitParams(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("SplitParams(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("SplitParams(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSpecValidate(t *testing.T) {
	tests := []struct {
		change  func(*workload.Spec)
		wantErr string // "" for valid
	}{
		{func(*workload.Spec) {}, ""},
		{func(s *workload.Spec) { s.Keys = 0 }, "{Keys} must be at least 1"},
		{func(s *workload.Spec) { s.KeySize = 2; s.Keys = 100 }, "need more than 2-byte keys"},
		{func(s *workload.Spec) { s.Dist = "pareto" }, `unknown key distribution "pareto"`},
		{func(s *workload.Spec) { s.Batch = 0 }, "{Batch} must be at least 1"},
		{func(s *workload.Spec) { s.ValueSize = 0 }, ""},
	}
	for i, tt := range tests {
		s := workload.DefaultSpec()
		tt.change(&s)
		err := s.Validate()
		if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("case %d: Validate(%+v) = %v, want %q", i, s, err, tt.wantErr)
		}
	}
}

func TestPrepareDir(t *testing.T) {
	t.Run("temporary", func(t *testing.T) {
		dir, cleanup, err := kv.PrepareDir("")
		if err != nil {
			t.Fatal(err)
		}
		if err := cleanup(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("temporary dir %s still there after cleanup (%v)", dir, err)
		}
	})
	t.Run("new is made and removed", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "a", "b")
		_, cleanup, err := kv.PrepareDir(path)
		if err != nil {
			t.Fatal(err)
		}
		cleanup()
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("dir %s made by dbmeter still there (%v)", path, err)
		}
	})
	t.Run("empty is adopted and reusable", func(t *testing.T) {
		path := t.TempDir()
		for range 2 {
			if _, cleanup, err := kv.PrepareDir(path); err != nil {
				t.Fatal(err)
			} else {
				cleanup()
			}
		}
	})
	t.Run("foreign files are refused and kept", func(t *testing.T) {
		path := t.TempDir()
		os.WriteFile(filepath.Join(path, "precious"), []byte("x"), 0o644)
		if _, _, err := kv.PrepareDir(path); !errors.Is(err, kv.ErrDirInUse) {
			t.Fatalf("PrepareDir of a dir with foreign files = %v, want ErrDirInUse", err)
		}
		if _, err := os.Stat(filepath.Join(path, "precious")); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a file is refused as the user's mistake", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "file")
		os.WriteFile(path, []byte("x"), 0o644)
		if _, _, err := kv.PrepareDir(path); !usage.Is(err) || !strings.Contains(err.Error(), "is not a directory") {
			t.Fatalf("PrepareDir of a regular file = %v, want a usage error saying it is not a directory", err)
		}
	})
}
