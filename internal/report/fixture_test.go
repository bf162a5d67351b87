package report

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", name, diff)
	}
}

// fakeRun makes a deterministic run whose latencies spread around
// baseNs, with intervals, a histogram and, when errs > 0, failures in its
// second interval.
func fakeRun(t *testing.T, family, target, workload string, rep int, opsPerS float64, baseNs int64, errs int64, params map[string]string) result.Run {
	t.Helper()
	h := hist.New()
	for i := int64(0); i < 1000; i++ {
		h.RecordValue(baseNs + baseNs*i/1000 + (i%97)*baseNs/10*int64(i%991/990*50))
	}
	enc, err := result.EncodeHDR(h)
	if err != nil {
		t.Fatal(err)
	}
	p := map[string]string{"workers": "1", "seed": "1", "json": "r.json", "duration": "3s"}
	for k, v := range params {
		p[k] = v
	}
	ops := int64(opsPerS * 3)
	var ivs []result.Interval
	for i := 1; i <= 3; i++ {
		iv := result.Interval{TS: float64(i), Ops: ops / 3, P50: h.ValueAtQuantile(50), P99: h.ValueAtQuantile(99) + int64(i)}
		if i == 2 {
			iv.Errors = errs
		}
		ivs = append(ivs, iv)
	}
	r := result.Run{
		Family: family, Target: target, Workload: workload, Params: p, Mode: "closed", Workers: 1,
		Repeat: rep, Seed: uint64(rep),
		Stats: result.Stats{
			DurationS: 3, Ops: ops, Errors: errs, ErrorKinds: map[string]int64{}, OpsPerS: opsPerS,
			Latency: result.LatencyOf(h), Service: result.LatencyOf(h), LatencyHDR: enc, Intervals: ivs,
			Client: result.Client{CPUS: 1.5, CPUNsPerOp: 500, AllocsPerOp: 2},
		},
	}
	if errs > 0 {
		r.ErrorKinds["timeout"] = errs
	}
	return r
}

// fakeDoc is a kv document of two engines × two operations × reps
// repetitions; speed scales the second engine's throughput.
func fakeDoc(t *testing.T, reps int, speed float64) *result.Document {
	t.Helper()
	doc := &result.Document{
		Schema: result.Schema, Tool: result.Tool{Name: "dbmeter", Version: "test"},
		StartedAt: time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC),
		Env: result.Env{CPUModel: "Test CPU", CPUs: 2, GOMAXPROCS: 2, MemBytes: 8 << 30, OS: "linux", Kernel: "Linux 6.1", Go: "go1.26.8",
			Modules: map[string]string{"github.com/cockroachdb/pebble/v2": "v2.1.7"}, Disk: result.Disk{Path: "/tmp/kv", FS: "ext4"}},
		Command: "dbmeter kv --engines map,pebble --ops get,set --json r.json",
	}
	for rep := 1; rep <= reps; rep++ {
		jitter := 1 + float64(rep%3)/100
		doc.Runs = append(doc.Runs,
			fakeRun(t, "kv", "map", "get", rep, 5e6*jitter, 200, 0, nil),
			fakeRun(t, "kv", "map", "set", rep, 2e6*jitter, 500, 0, nil),
			fakeRun(t, "kv", "pebble", "get", rep, 1e6*jitter*speed, int64(900/speed), 0, nil),
			fakeRun(t, "kv", "pebble", "set", rep, 3e5*jitter*speed, int64(3000/speed), int64(rep-1), nil),
		)
	}
	return doc
}

// mixedDoc adds the other families' layouts: a ch insert with phases and
// a null run split by a param.
func mixedDoc(t *testing.T) *result.Document {
	doc := fakeDoc(t, 1, 1)
	ins := fakeRun(t, "ch", "clickhouse-go-v1", "insert", 1, 2, 40_000_000, 0, map[string]string{"batch": "100000"})
	ins.Rows, ins.RowsPerS, ins.Bytes, ins.BytesPerS = 600000, 200000, 840e6, 280e6
	ins.Phases = map[string]result.Phase{"build": {Count: ins.Ops, Latency: result.Latency{P50: 10_000_000, P99: 12_000_000}}, "send": {Count: ins.Ops, Latency: result.Latency{P50: 30_000_000, P99: 40_000_000}}}
	doc.Runs = append(doc.Runs, ins,
		fakeRun(t, "null", "null", "noop", 1, 1e7, 60, 0, map[string]string{"delay": "0s"}),
		fakeRun(t, "null", "null", "noop", 1, 1e5, 10_000, 0, map[string]string{"delay": "10µs"}),
	)
	doc.Runs[len(doc.Runs)-1].Extra = map[string]float64{"overhead_ns_per_op": 12.5}
	doc.Runs[len(doc.Runs)-1].Warnings = []string{"a warning a reader must see"}
	return doc
}
