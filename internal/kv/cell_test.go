package kv

import (
	"context"
	"errors"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
)

// The state every cell starts from, on every engine: the preloaded keys
// and no other, an LSM tree with nothing left in level 0 (flushed and
// compacted), files on disk for an engine that keeps data (a copy of the
// preloaded store); and after a cell, the key count it records is the
// count the store holds, also after del rounds put the keys back.
func TestCellStartState(t *testing.T) {
	spec := workload.DefaultSpec()
	spec.Keys, spec.Batch = 3000, 10
	for _, name := range engine.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := engine.Lookup(name)
			ctx := context.Background()
			c, err := openCell(ctx, e, engine.Options{Dir: t.TempDir()}, spec, 7)
			if err != nil {
				t.Fatal(err)
			}
			if e.Persistent() { // as a matrix does: a cell opens a copy of it
				if err := c.s.Close(); err != nil {
					t.Fatal(err)
				}
				if c, err = copyCell(ctx, e, engine.Options{Dir: t.TempDir()}, spec, c.o.Dir); err != nil {
					t.Fatal(err)
				}
			}
			defer func() { c.s.Close() }()
			if got := heldKeys(t, c); got != 3000 || c.d.Held != 3000 {
				t.Fatalf("after openCell the store holds %d keys, counted %d; want the 3000 preloaded", got, c.d.Held)
			}
			if _, err := c.s.Get([]byte("000003000"), nil); !errors.Is(err, engine.ErrNotFound) {
				t.Errorf("key 3000 before any write: %v, want not found", err)
			}
			if n, ok := level0(t, c.s); ok && n != 0 {
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
			ws := workload.NewSet(c.s, c.d, cfg)
			if _, err := load.Run(ctx, cfg, ws.Ops(), ws.NewWorker, nil); err != nil {
				t.Fatal(err)
			}
			ws.End()
			wd, _ := workload.NewDel(c.s, c.d)
			if _, _, err := c.delRounds(ctx, wd, cfg, nil); err != nil {
				t.Fatal(err)
			}
			if got := heldKeys(t, c); got != 3000 || c.d.Held != 3000 {
				t.Errorf("after 500 sets and 500 deletes the store holds %d keys, counted %d; want 3000", got, c.d.Held)
			}
		})
	}
}

// heldKeys counts the keys the cell's store really holds, by reading
// each: the check on Data.Held.
func heldKeys(t *testing.T, c *cellStore) uint64 {
	n, err := workload.CountHeld(c.s, c.d)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// level0 is how many tables an LSM engine has in level 0; ok is false for
// an engine without levels.
func level0(t *testing.T, s engine.Store) (int, bool) {
	n, ok, err := engine.Level0Tables(s)
	if err != nil {
		t.Fatal(err)
	}
	return n, ok
}
