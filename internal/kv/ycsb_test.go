package kv_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/kv/kvycsb"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
)

// runYCSB runs ops on engines as the CLI would and returns the runs by
// target and workload.
func runYCSB(t *testing.T, engines, ops []string, keys int, cfg load.Config, ys kvycsb.Spec) map[string]result.Run {
	t.Helper()
	spec := workload.DefaultSpec()
	spec.Keys = keys
	m, err := kv.NewMatrix(kv.MatrixOptions{Engines: engines, Ops: ops, Fsync: "false", Spec: spec, Load: cfg, Repeat: 1, YCSB: ys})
	if err != nil {
		t.Fatal(err)
	}
	m.Dir = t.TempDir()
	var c plan.Collector
	if err := plan.Execute(context.Background(), m.Plan(), &c); err != nil {
		t.Fatal(err)
	}
	out := map[string]result.Run{}
	for _, r := range c.Runs {
		out[r.Target+" "+r.Workload] = r
	}
	return out
}

// Each workload's cell runs YCSB's mix, reports each operation of it as a
// run of its own, and carries the hottest-1 % figure; the load inserts
// every record once; map cannot scan, and says so without failing.
func TestYCSBWorkloads(t *testing.T) {
	const keys, count = 2000, 20_000
	runs := runYCSB(t, []string{"btree:memory", "map:memory"}, kvycsb.Ops(), keys, countConfig(2, count), kvycsb.DefaultSpec())
	type part struct {
		name  string
		share float64 // of the cell's operations; 0: only present
	}
	want := map[string][]part{
		"ycsb-a": {{"read", 0.5}, {"update", 0.5}},
		"ycsb-b": {{"read", 0.95}, {"update", 0.05}},
		"ycsb-c": {{"read", 1}},
		"ycsb-d": {{"read", 0.95}, {"insert", 0.05}},
		"ycsb-e": {{"scan", 0.95}, {"insert", 0.05}},
		"ycsb-f": {{"read", 0.5}, {"read-modify-write", 0.5}},
	}
	for _, engine := range []string{"btree:memory", "map:memory"} {
		if r := runs[engine+" ycsb-load"]; r.Ops != keys || r.Errors != 0 {
			t.Errorf("%s ycsb-load: %d inserts, %d errors; want %d and 0", engine, r.Ops, r.Errors, keys)
		}
		for cell, parts := range want {
			r, ok := runs[engine+" "+cell]
			if !ok {
				t.Errorf("%s %s: no run", engine, cell)
				continue
			}
			if engine == "map:memory" && cell == "ycsb-e" {
				if r.Ops != 0 || r.Extra["not_supported"] != 1 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "cannot scan") {
					t.Errorf("map ycsb-e: %d ops, extra %v, warnings %q; want a not-supported cell", r.Ops, r.Extra, r.Warnings)
				}
				continue
			}
			if r.Ops != count || r.Errors != 0 {
				t.Errorf("%s %s: %d ops, %d errors; want %d and 0", engine, cell, r.Ops, r.Errors, count)
			}
			if s, ok := r.Extra["hottest_1pct_share"]; !ok || s <= 0 || s > 1 {
				t.Errorf("%s %s: hottest_1pct_share %v (present %v)", engine, cell, s, ok)
			}
			var sum int64
			for _, p := range parts {
				pr, ok := runs[engine+" "+cell+"/"+p.name]
				if !ok {
					t.Errorf("%s %s: no %s run", engine, cell, p.name)
					continue
				}
				sum += pr.Ops
				// 2 % as the issue asks: over 4 standard deviations here.
				if got := float64(pr.Ops) / float64(r.Ops); math.Abs(got-p.share) > 0.02 {
					t.Errorf("%s %s: %s is %.3f of the operations, want %.2f ± 0.02", engine, cell, p.name, got, p.share)
				}
			}
			if sum != r.Ops {
				t.Errorf("%s %s: its parts add up to %d operations, the cell has %d", engine, cell, sum, r.Ops)
			}
		}
	}
	if r := runs["btree:memory ycsb-e/scan"]; r.Rows <= r.Ops {
		t.Errorf("btree ycsb-e: %d scans returned %d records; scans of 1–100 should average about 50", r.Ops, r.Rows)
	}
}

// hottest_1pct_share tells the distributions apart: uniform draws give
// about 1 %, the zipfian about a fifth (the 1 % most popular of YCSB's
// 10^10 ranks are a fifth of its mass over 2,000 records), hotspot's 80 %
// over a fifth of the records gives 4 %, and the latest's newest records
// take most.
func TestYCSBHottestShare(t *testing.T) {
	tests := []struct {
		dist   string
		lo, hi float64
	}{
		{"uniform", 0.008, 0.012},
		{"hotspot", 0.035, 0.045},
		{"zipfian", 0.15, 0.30},
		{"latest", 0.30, 1},
	}
	for _, tt := range tests {
		t.Run(tt.dist, func(t *testing.T) {
			ys := kvycsb.DefaultSpec()
			ys.Distribution = tt.dist
			runs := runYCSB(t, []string{"map:memory"}, []string{"ycsb-c"}, 2000, countConfig(1, 200_000), ys)
			r := runs["map:memory ycsb-c"]
			if s := r.Extra["hottest_1pct_share"]; s < tt.lo || s > tt.hi || r.Params["request_distribution"] != tt.dist {
				t.Errorf("%s: hottest_1pct_share %.4f, want %.3f to %.3f (params %q)", tt.dist, s, tt.lo, tt.hi, r.Params["request_distribution"])
			}
		})
	}
}

// The same seed repeats the same draws; another seed makes others.
func TestYCSBSeedRepeats(t *testing.T) {
	draw := func(seed uint64) (int64, float64) {
		cfg := countConfig(1, 5000)
		cfg.Seed = seed
		r := runYCSB(t, []string{"map:memory"}, []string{"ycsb-a"}, 1000, cfg, kvycsb.DefaultSpec())
		return r["map:memory ycsb-a/read"].Ops, r["map:memory ycsb-a"].Extra["hottest_1pct_share"]
	}
	reads1, share1 := draw(7)
	reads2, share2 := draw(7)
	reads3, share3 := draw(8)
	if reads1 != reads2 || share1 != share2 {
		t.Errorf("seed 7 twice: %d reads and share %v, then %d and %v", reads1, share1, reads2, share2)
	}
	if reads1 == reads3 && share1 == share3 {
		t.Errorf("seeds 7 and 8 drew alike: %d reads, share %v", reads1, share1)
	}
}
