package kv_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
)

func countConfig(workers int, count int64) load.Config {
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Count = workers, count
	cfg.Duration, cfg.Warmup, cfg.Interval = 0, 0, 0
	return cfg
}

func openMemory(t *testing.T) kv.Store {
	t.Helper()
	e, _ := kv.Lookup("map:memory")
	s, err := e.Open(context.Background(), kv.Options{})
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
	spec := kv.DefaultSpec()
	spec.Keys = 50
	d := kv.NewData(spec)
	cfg := countConfig(3, 300)
	w := kv.NewSet(s, d, cfg)
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
	w2 := kv.NewSet(s, d, countConfig(1, 1))
	load.Run(context.Background(), countConfig(1, 1), w2.Ops(), w2.NewWorker, nil)
	if _, err := s.Get(key(350), nil); err != nil {
		t.Errorf("second set did not write key %s: %v", key(350), err)
	}
}

// del removes every preloaded key exactly once; one more is an error.
func TestDelEachPreloadedKeyOnce(t *testing.T) {
	s := openMemory(t)
	spec := kv.DefaultSpec()
	spec.Keys = 100
	d := kv.NewData(spec)
	if err := d.Preload(context.Background(), s, 1); err != nil {
		t.Fatal(err)
	}
	w, err := kv.NewDel(s, d)
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
	spec := kv.DefaultSpec()
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
	if len(runs) != 2*2*6 {
		t.Fatalf("got %d runs, want 24: %q", len(runs), got)
	}
	for _, r := range runs {
		switch r.Workload {
		case "batchset":
			if r.Rows != 10*r.Ops || r.Extra["keys_s"] == 0 || r.Extra["ns_per_key"] == 0 {
				t.Errorf("%s batchset: rows %d of %d batches, extra %v", r.Target, r.Rows, r.Ops, r.Extra)
			}
		case "del":
			// --count 100 of 200 preloaded keys: del deletes 100 of them.
			if r.Ops != 100 || r.Params["count"] != "100" {
				t.Errorf("%s del: %d ops, params count %q; want min(count, keys) = 100", r.Target, r.Ops, r.Params["count"])
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
