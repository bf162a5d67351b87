package kv

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
)

// treeSums is every regular file under dir by its path, with its length
// and a hash of its bytes.
func treeSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.Copy(h, f)
		rel, _ := filepath.Rel(dir, path)
		sums[rel] = fmt.Sprintf("%d bytes %x", n, h.Sum(nil))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// Every cell of an engine starts from the same bytes: the preloaded
// template its cells copy is the same, file for file and byte for byte,
// after each operation has run on a copy of it, also where the copy links
// the files the engine says it never changes (Engine.Immutable) instead of
// copying them. The check catches an engine that breaks its word: bbolt
// told that its one file never changes finds its template changed.
func TestTemplateUnchangedByCells(t *testing.T) {
	spec := workload.DefaultSpec()
	spec.Keys, spec.Batch = 3000, 10
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Count = 2, 400
	cfg.Duration, cfg.Warmup, cfg.Interval = 0, 0, 0
	type tc struct {
		name, engine string
		immutable    []string // nil: the engine's own
		wantChanged  bool
	}
	var cases []tc
	for _, name := range engine.Names() {
		if e, _ := engine.Lookup(name); e.Persistent() {
			cases = append(cases, tc{name: name, engine: name})
		}
	}
	cases = append(cases, tc{name: "bbolt told its file never changes", engine: "bbolt", immutable: []string{"*.db"}, wantChanged: true})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e, _ := engine.Lookup(c.engine)
			if c.immutable != nil {
				e.Immutable = c.immutable
			}
			ctx := context.Background()
			m := &Matrix{Engines: []engine.Engine{e}, Ops: Ops(), Fsync: []bool{false}, Spec: spec, Dir: t.TempDir(), Load: cfg, Repeat: 1}
			tpl := &templates{root: m.Dir}
			dir, err := tpl.get(ctx, e, engine.Options{}, spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			before := treeSums(t, dir)
			if len(e.Immutable) > 0 && linkedFiles(t, dir, e) == 0 {
				t.Fatalf("a copy of the template linked none of its files (%v): the check below checks nothing shared", e.Immutable)
			}
			rep := plan.Rep{N: 1, Seed: 1, WatchAs: func(string, ...string) load.Watcher { return nil }}
			changed := ""
			for _, op := range m.cells() {
				if _, err := m.cell(ctx, e, false, op, rep, tpl); err != nil {
					t.Fatalf("%s: %v", op, err)
				}
				if after := treeSums(t, dir); changed == "" && !maps.Equal(before, after) {
					changed = op
				}
			}
			if len(e.Immutable) > 0 && changed == "" {
				compactCopy(ctx, t, e, spec, dir)
				if after := treeSums(t, dir); !maps.Equal(before, after) {
					changed = "compaction"
				}
			}
			switch {
			case changed != "" && !c.wantChanged:
				t.Errorf("the template changed after a %s cell: the next cell would start from another state", changed)
			case changed == "" && c.wantChanged:
				t.Errorf("the template did not change, though its one file was shared with every cell that wrote")
			}
		})
	}
}

// compactCopy opens a copy of the template at dir, overwrites a tenth of
// its keys and compacts the whole key range, so that the engine replaces,
// and deletes, the tables the copy shares with the template: the cells
// above are too short to make a compaction delete one. (badger, whose
// tables are not shared, empties a table before it deletes it, which
// would empty the template's too.)
func compactCopy(ctx context.Context, t *testing.T, e engine.Engine, spec workload.Spec, dir string) {
	t.Helper()
	c, err := copyCell(ctx, e, engine.Options{Dir: t.TempDir()}, spec, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.s.Close()
	st, ok := c.s.(engine.Settler)
	if !ok {
		t.Fatalf("%s shares its tables with the template but cannot compact them (no Settler): nothing here makes it delete one", e.Name)
	}
	shared := linkedNow(t, dir, c.o.Dir)
	val := make([]byte, spec.ValueSize)
	for i := 0; i < spec.Keys; i += 10 {
		if err := c.s.Set(fmt.Appendf(nil, "%0*d", spec.KeySize, i), val); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	// An engine may remove a replaced table a moment later (goleveldb,
	// once no version refers to it).
	for deadline := time.Now().Add(5 * time.Second); linkedNow(t, dir, c.o.Dir) >= shared; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the compaction deleted none of the %d tables the copy shares with the template: nothing checked", shared)
		}
	}
}

// linkedNow counts the files under dir that the directory cell shares.
func linkedNow(t *testing.T, dir, cell string) int {
	t.Helper()
	n := 0
	for name := range treeSums(t, dir) {
		a, errA := os.Stat(filepath.Join(dir, name))
		b, errB := os.Stat(filepath.Join(cell, name))
		if errA == nil && errB == nil && os.SameFile(a, b) {
			n++
		}
	}
	return n
}

// linkedFiles copies dir as a cell does and counts the files the copy
// shares with it.
func linkedFiles(t *testing.T, dir string, e engine.Engine) int {
	t.Helper()
	to := t.TempDir()
	if err := copyTree(dir, to, e.NeverChanges); err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, sum := range treeSums(t, to) {
		a, errA := os.Stat(filepath.Join(dir, name))
		b, errB := os.Stat(filepath.Join(to, name))
		if errA != nil || errB != nil || sum == "" {
			t.Fatalf("%s: %v %v", name, errA, errB)
		}
		if os.SameFile(a, b) {
			n++
		}
	}
	return n
}
