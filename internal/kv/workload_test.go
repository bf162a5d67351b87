package kv_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
)

func countConfig(workers int, count int64) load.Config {
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Count = workers, count
	cfg.Duration, cfg.Warmup, cfg.Interval = 0, 0, 0
	return cfg
}

func openMemory(t *testing.T) engine.Store {
	t.Helper()
	e, _ := engine.Lookup("map:memory")
	s, err := e.Open(context.Background(), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func key(i int) []byte { return fmt.Appendf(nil, "%09d", i) }

// set's workers write distinct keys past the preloaded ones: 3 workers ×
// 100 writes leave exactly keys Keys … Keys+299.
func TestSetWritesDistinctFreshKeys(t *testing.T) {
	s := openMemory(t)
	spec := workload.DefaultSpec()
	spec.Keys = 50
	d := workload.NewData(spec)
	cfg := countConfig(3, 300)
	w := workload.NewSet(s, d, cfg)
	res, err := load.Run(context.Background(), cfg, w.Ops(), w.NewWorker, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.End()
	if st := res.Stats(0); st.Ops != 300 || st.Errors != 0 {
		t.Fatalf("set ran %d ops with %d errors, want 300 and 0", st.Ops, st.Errors)
	}
	for i := 50; i < 350; i++ {
		if _, err := s.Get(key(i), nil); err != nil {
			t.Fatalf("key %s after set: %v", key(i), err)
		}
	}
	for _, i := range []int{0, 49, 350} {
		if _, err := s.Get(key(i), nil); err == nil {
			t.Errorf("key %s exists, want only the 300 written", key(i))
		}
	}
	// The next writer starts past them.
	w2 := workload.NewSet(s, d, countConfig(1, 1))
	load.Run(context.Background(), countConfig(1, 1), w2.Ops(), w2.NewWorker, nil)
	if _, err := s.Get(key(350), nil); err != nil {
		t.Errorf("second set did not write key %s: %v", key(350), err)
	}
}

// del removes every preloaded key exactly once; one more is an error.
func TestDelEachPreloadedKeyOnce(t *testing.T) {
	s := openMemory(t)
	spec := workload.DefaultSpec()
	spec.Keys = 100
	d := workload.NewData(spec)
	if err := d.Preload(context.Background(), s, 1); err != nil {
		t.Fatal(err)
	}
	w, err := workload.NewDel(s, d)
	if err != nil {
		t.Fatal(err)
	}
	res, err := load.Run(context.Background(), countConfig(2, 101), w.Ops(), w.NewWorker, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st := res.Stats(0); st.Ops != 100 || st.Errors != 1 {
		t.Fatalf("del of 100 keys, 101 tries: %d ops, %d errors; want 100 and 1", st.Ops, st.Errors)
	}
	for i := range 100 {
		if _, err := s.Get(key(i), nil); err == nil {
			t.Fatalf("key %s survived del", key(i))
		}
	}
}

// The matrix gives one run per engine × operation × fsync mode, each
// named as the result document promises, with zero errors.
func TestMatrix(t *testing.T) {
	engines, err := kv.CheckEngines([]string{"map:memory", "btree"})
	if err != nil {
		t.Fatal(err)
	}
	spec := workload.DefaultSpec()
	spec.Keys, spec.Batch = 200, 10
	m := kv.Matrix{
		Engines: engines, Ops: kv.Ops(), Fsync: []bool{false, true}, Spec: spec,
		Dir: t.TempDir(), Load: countConfig(2, 100), Repeat: 1,
	}
	var c plan.Collector
	if err := plan.Execute(context.Background(), m.Plan(), &c); err != nil {
		t.Fatal(err)
	}
	runs := c.Runs
	var got []string
	for _, r := range runs {
		got = append(got, fmt.Sprintf("%s/%s/%s", r.Params["fsync"], r.Target, r.Workload))
		if r.Errors != 0 || r.Family != "kv" {
			t.Errorf("%s/%s: family %q, %d errors", r.Target, r.Workload, r.Family, r.Errors)
		}
	}
	if len(runs) != 2*2*7 {
		t.Fatalf("got %d runs, want 28: %q", len(runs), got)
	}
	for _, r := range runs {
		switch r.Workload {
		case "batchset":
			if r.Rows != 10*r.Ops || r.Extra["keys_s"] == 0 || r.Extra["ns_per_key"] == 0 {
				t.Errorf("%s batchset: rows %d of %d batches, extra %v", r.Target, r.Rows, r.Ops, r.Extra)
			}
		case "del":
			// --count 100 of 200 preloaded keys: del deletes 100 of them.
			if r.Ops != 100 || r.Extra["keys_end"] != 100 {
				t.Errorf("%s del: %d ops, %v keys left; want 100 and 100", r.Target, r.Ops, r.Extra["keys_end"])
			}
		case "setmixed", "getmixed":
			if r.Ops == 0 {
				t.Errorf("%s %s: no ops", r.Target, r.Workload)
			}
		}
		if r.Target == "btree" && r.Params["btree.degree"] != "32" {
			t.Errorf("btree run params lack the engine knob: %v", r.Params)
		}
	}
	entries, _ := readDir(m.Dir)
	if len(entries) != 0 {
		t.Errorf("engine directories left behind: %v", entries)
	}
}

func readDir(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names, err
}

// matrixRuns runs a matrix of map:memory and pebble over 200 keys with
// cfg and returns its runs by fsync/engine/operation.
func matrixRuns(t *testing.T, ops []string, cfg load.Config) map[string]result.Run {
	t.Helper()
	engines, err := kv.CheckEngines([]string{"map:memory", "pebble"})
	if err != nil {
		t.Fatal(err)
	}
	spec := workload.DefaultSpec()
	spec.Keys, spec.Batch = 200, 10
	m := kv.Matrix{Engines: engines, Ops: ops, Fsync: []bool{false}, Spec: spec, Dir: t.TempDir(), Load: cfg, Repeat: 1}
	var c plan.Collector
	if err := plan.Execute(context.Background(), m.Plan(), &c); err != nil {
		t.Fatal(err)
	}
	out := map[string]result.Run{}
	for _, r := range c.Runs {
		if r.Errors != 0 {
			t.Errorf("%s/%s: %d errors", r.Target, r.Workload, r.Errors)
		}
		out[r.Target+"/"+r.Workload] = r
	}
	return out
}

// Every cell starts from the same store, whatever ran before it: the
// preloaded keys and nothing else, so get after set reads 200 keys, not
// 200 plus what set wrote; and each cell says what its store held at its
// end: set and batchset add a key per write, update and get none, del takes
// one off per delete.
func TestMatrixCellsStartAlike(t *testing.T) {
	runs := matrixRuns(t, kv.Ops(), countConfig(2, 100))
	for _, e := range []string{"map:memory", "pebble"} {
		var size float64
		for _, op := range kv.Ops() {
			r, ok := runs[e+"/"+op]
			if !ok {
				t.Fatalf("no %s/%s run", e, op)
			}
			if r.Extra["keys_start"] != 200 {
				t.Errorf("%s/%s started with %v keys, want the 200 preloaded", e, op, r.Extra["keys_start"])
			}
			if e == "pebble" && r.Extra["disk_bytes_start"] <= 0 {
				t.Errorf("%s/%s: no size on disk at the start: %v", e, op, r.Extra)
			}
			// A copy of one preloaded store: the same size on disk, give or
			// take the few pages the engine writes as it opens (a new WAL, a
			// manifest), nowhere near the 265 KB batchset adds before del.
			if size == 0 {
				size = r.Extra["disk_bytes_start"]
			} else if d := r.Extra["disk_bytes_start"] - size; d > 16<<10 || d < -16<<10 {
				t.Errorf("%s/%s started with %v bytes on disk, the first cell with %v", e, op, r.Extra["disk_bytes_start"], size)
			}
			added := map[string]float64{"set": 100, "batchset": 100 * 10, "setmixed": float64(r.Ops), "del": -100}[op]
			if op == "getmixed" {
				added = float64(runs[e+"/setmixed"].Ops)
			}
			if want := 200 + added; r.Extra["keys_end"] != want {
				t.Errorf("%s/%s ended with %v keys, want %v", e, op, r.Extra["keys_end"], want)
			}
		}
	}
}

// del is measured for the window asked, however few keys there are: it
// deletes them in rounds, putting them back between rounds, and a --count
// larger than the keys deletes that many in all.
func TestDelRounds(t *testing.T) {
	runs := matrixRuns(t, []string{"del"}, countConfig(2, 500))
	for _, e := range []string{"map:memory", "pebble"} {
		r := runs[e+"/del"]
		// 200 keys: rounds of 200, 200 and 100 deletes.
		if r.Ops != 500 || r.Extra["del_rounds"] != 3 || r.Extra["keys_end"] != 100 {
			t.Errorf("%s del --count 500 of 200 keys: %d deletes in %v rounds, %v keys left; want 500 in 3, 100 left",
				e, r.Ops, r.Extra["del_rounds"], r.Extra["keys_end"])
		}
	}
	cfg := countConfig(2, 0)
	cfg.Duration, cfg.Interval = 150*time.Millisecond, 15*time.Millisecond
	runs = matrixRuns(t, []string{"del"}, cfg)
	for _, e := range []string{"map:memory", "pebble"} {
		r := runs[e+"/del"]
		if r.DurationS < 0.15 || len(r.Intervals) < 10 {
			t.Errorf("%s del for 150ms over 200 keys: measured %.3fs (%d deletes), %d intervals; want at least 150ms and 10 intervals",
				e, r.DurationS, r.Ops, len(r.Intervals))
		}
	}
}

// A del cell on an engine whose durable delete takes a second (cznic/kv
// waits for its once-a-second group commit) measures about its window, not
// the hundred seconds a first round of 100 deletes per worker took.
func TestDelRoundsSlowDurableDeletes(t *testing.T) {
	engines, err := kv.CheckEngines([]string{"cznic/kv"})
	if err != nil {
		t.Fatal(err)
	}
	spec := workload.DefaultSpec()
	spec.Keys = 200
	cfg := countConfig(2, 0)
	cfg.Duration, cfg.Interval = 100*time.Millisecond, 10*time.Millisecond
	m := kv.Matrix{Engines: engines, Ops: []string{"del"}, Fsync: []bool{true}, Spec: spec, Dir: t.TempDir(), Load: cfg, Repeat: 1}
	var c plan.Collector
	if err := plan.Execute(context.Background(), m.Plan(), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(c.Runs))
	}
	// A bound on what the window covers, not on speed: one round of one
	// delete per worker lasts about one commit.
	if r := c.Runs[0]; r.Errors != 0 || r.Ops == 0 || r.DurationS > 10 {
		t.Errorf("cznic/kv durable del for 100ms: %d deletes, %d errors, measured over %.1fs; want some deletes, no errors, within 10s", r.Ops, r.Errors, r.DurationS)
	}
}

// The repetitions are interleaved: the whole matrix once, then again, so a
// cell's repetitions see the machine at moments far apart; every engine's
// preloaded store is kept until its last cell of the last repetition and
// then removed.
func TestMatrixRepetitionsInterleaved(t *testing.T) {
	engines, err := kv.CheckEngines([]string{"pebble", "map:memory"})
	if err != nil {
		t.Fatal(err)
	}
	spec := workload.DefaultSpec()
	spec.Keys, spec.Batch = 200, 10
	m := kv.Matrix{Engines: engines, Ops: []string{"set", "get"}, Fsync: []bool{false}, Spec: spec, Dir: t.TempDir(),
		Load: countConfig(2, 100), Repeat: 2}
	var c plan.Collector
	if err := plan.Execute(context.Background(), m.Plan(), &c); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range c.Runs {
		got = append(got, fmt.Sprintf("%s/%s/%d", r.Target, r.Workload, r.Repeat))
	}
	want := []string{"pebble/set/1", "pebble/get/1", "map:memory/set/1", "map:memory/get/1",
		"pebble/set/2", "pebble/get/2", "map:memory/set/2", "map:memory/get/2"}
	if !slices.Equal(got, want) {
		t.Errorf("runs in the order %q, want %q", got, want)
	}
	if entries, _ := readDir(m.Dir); len(entries) != 0 {
		t.Errorf("directories left behind: %v", entries)
	}
}
