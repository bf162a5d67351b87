package ycsb_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ycsb"
)

// The workload files, as YCSB ships them (workloads/workload[a-f]).
func TestWorkloadsAreYCSBs(t *testing.T) {
	want := map[string]struct {
		mix     map[ycsb.Op]float64
		dist    string
		maxScan int64
	}{
		"a": {map[ycsb.Op]float64{ycsb.Read: 0.5, ycsb.Update: 0.5}, "zipfian", 1000},
		"b": {map[ycsb.Op]float64{ycsb.Read: 0.95, ycsb.Update: 0.05}, "zipfian", 1000},
		"c": {map[ycsb.Op]float64{ycsb.Read: 1}, "zipfian", 1000},
		"d": {map[ycsb.Op]float64{ycsb.Read: 0.95, ycsb.Insert: 0.05}, "latest", 1000},
		"e": {map[ycsb.Op]float64{ycsb.Scan: 0.95, ycsb.Insert: 0.05}, "zipfian", 100},
		"f": {map[ycsb.Op]float64{ycsb.Read: 0.5, ycsb.ReadModifyWrite: 0.5}, "zipfian", 1000},
	}
	for name, w := range want {
		got, err := ycsb.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if got.Distribution != w.dist || got.MaxScanLength != w.maxScan {
			t.Errorf("workload %s: %s, scans up to %d; want %s, up to %d", name, got.Distribution, got.MaxScanLength, w.dist, w.maxScan)
		}
		r := rand.New(rand.NewPCG(1, 1))
		ops, chooser := got.Ops(), got.OpChooser()
		counts := map[ycsb.Op]float64{}
		const n = 200_000
		for range n {
			counts[ops[chooser.Next(r)]]++
		}
		for op := range w.mix {
			share := counts[op] / n
			// Four standard deviations of a binomial share.
			if tol := 4 * math.Sqrt(w.mix[op]*(1-w.mix[op])/n); math.Abs(share-w.mix[op]) > tol {
				t.Errorf("workload %s: %s drawn %.4f of the time, want %.2f ± %.4f", name, op, share, w.mix[op], tol)
			}
		}
		if len(counts) != len(w.mix) {
			t.Errorf("workload %s drew %v, want only %v", name, counts, w.mix)
		}
	}
	if _, err := ycsb.Lookup("g"); err == nil {
		t.Error("Lookup(g) succeeded, want an error")
	}
}

// Records not yet acknowledged are never chosen, even when acknowledged out
// of order; a gap holds Last back until it is filled.
func TestCounterAcknowledgesInOrder(t *testing.T) {
	c := ycsb.NewCounter(10)
	if c.Last() != 9 {
		t.Fatalf("Last of a fresh counter over 10 records = %d, want 9", c.Last())
	}
	a, b := c.Next(), c.Next()
	if a != 10 || b != 11 {
		t.Fatalf("Next, Next = %d, %d; want 10, 11", a, b)
	}
	if err := c.Acknowledge(b); err != nil {
		t.Fatal(err)
	}
	if c.Last() != 9 {
		t.Errorf("Last after acknowledging 11 but not 10 = %d, want 9", c.Last())
	}
	if err := c.Acknowledge(a); err != nil {
		t.Fatal(err)
	}
	if c.Last() != 11 {
		t.Errorf("Last after acknowledging 10 and 11 = %d, want 11", c.Last())
	}
	c.Next() // 12 stays pending
	ahead := c.Next()
	if err := c.Acknowledge(ahead); err != nil {
		t.Fatal(err)
	}
	if err := c.Acknowledge(ahead + 1<<20); !errors.Is(err, ycsb.ErrTooManyPending) {
		t.Errorf("acknowledging a window past a pending insert = %v, want ErrTooManyPending", err)
	}
}

func TestCounterConcurrentInserts(t *testing.T) {
	c := ycsb.NewCounter(0)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10_000 {
				if err := c.Acknowledge(c.Next()); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if c.Last() != 39_999 {
		t.Errorf("Last after 40000 inserts from 4 goroutines = %d, want 39999", c.Last())
	}
}

// The zipfian chooser covers the records a run is expected to insert, and
// redraws those not inserted yet.
func TestKeyChooserSkipsRecordsToCome(t *testing.T) {
	w, _ := ycsb.Lookup("e")
	if got := w.ExpectedNewKeys(1000); got != 100 {
		t.Errorf("E's expected new keys over 1000 operations = %d, want 100 (1000 × 0.05 × 2)", got)
	}
	inserted := ycsb.NewCounter(100)
	keys, err := ycsb.NewKeys(ycsb.DistZipfian, 100, 1000, inserted)
	if err != nil {
		t.Fatal(err)
	}
	ch := keys.Chooser()
	r := rand.New(rand.NewPCG(1, 1))
	for range 10_000 {
		if n := ch.Next(r); n < 0 || n > 99 {
			t.Fatalf("chose record %d of 100", n)
		}
	}
}

func TestRecords(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	rec := ycsb.Record{FieldCount: 3, FieldLength: 5}
	v := make([]byte, rec.Size())
	ycsb.Fill(r, v)
	for _, b := range v {
		if b < ' ' || b >= ' '+64 {
			t.Fatalf("value byte %q outside YCSB's 64 printable characters", b)
		}
	}
	old := string(v)
	rec.UpdateField(r, v)
	changed := 0
	for f := range 3 {
		if old[f*5:(f+1)*5] != string(v[f*5:(f+1)*5]) {
			changed++
		}
	}
	if changed != 1 {
		t.Errorf("an update changed %d fields, want 1", changed)
	}
	for _, bad := range []ycsb.Record{{FieldCount: 0, FieldLength: 1}, {FieldCount: 1, FieldLength: -1}} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
	if _, err := ycsb.NewKeys("pareto", 10, 0, ycsb.NewCounter(10)); err == nil {
		t.Error("NewKeys(pareto) succeeded, want an error")
	}
}
