package report

import (
	"slices"
	"testing"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
)

// phase is a phase of n operations that each took ns.
func phase(t *testing.T, n int, ns int64) result.Phase {
	t.Helper()
	h := hist.New()
	for range n {
		h.RecordValue(ns)
	}
	return result.PhaseOf(h, int64(n)*ns)
}

// The ch insert table's phase figures pool a variant's repetitions as its
// batch latency does (histograms added), not a median of each
// repetition's p50; build % is the build's share of both phases' time over
// all of them.
func TestInsertPhasesPooled(t *testing.T) {
	t.Parallel()
	const ms = int64(1_000_000)
	tests := []struct {
		name string
		// build and send phases of each repetition: operations, ns each
		build, send                  [][2]int64
		buildP50, sendP50, buildPart string
	}{
		{
			// p50s 1, 2 and 5 ms: their median is 2 ms; 300 of the 500
			// builds took 5 ms, so the pooled p50 is 5 ms.
			name:  "the slow repetition holds most operations",
			build: [][2]int64{{100, 1 * ms}, {100, 2 * ms}, {300, 5 * ms}},
			send:  [][2]int64{{100, 9 * ms}, {100, 9 * ms}, {300, 9 * ms}},
			// build 1.8 s of 6.3 s
			buildP50: Nanos(5 * ms), sendP50: Nanos(9 * ms), buildPart: "29%",
		},
		{
			name:     "one repetition",
			build:    [][2]int64{{10, 3 * ms}},
			send:     [][2]int64{{10, 1 * ms}},
			buildP50: Nanos(3 * ms), sendP50: Nanos(1 * ms), buildPart: "75%",
		},
		{
			// a repetition that completed no batch adds nothing
			name:     "an empty repetition",
			build:    [][2]int64{{0, 0}, {20, 4 * ms}},
			send:     [][2]int64{{0, 0}, {20, 4 * ms}},
			buildP50: Nanos(4 * ms), sendP50: Nanos(4 * ms), buildPart: "50%",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var runs []result.Run
			for i := range tt.build {
				r := fakeRun(t, "ch", "clickhouse-go-v1", "insert", i+1, 2, 40*ms, 0, map[string]string{"batch": "100000"})
				r.Phases = map[string]result.Phase{
					"build": phase(t, int(tt.build[i][0]), tt.build[i][1]),
					"send":  phase(t, int(tt.send[i][0]), tt.send[i][1]),
				}
				runs = append(runs, r)
			}
			g := runsGrid(runs, insertTable)
			if len(g.Rows) != 1 {
				t.Fatalf("%d rows, want the variant's one:\n%v", len(g.Rows), g.Rows)
			}
			cell := func(head string) string {
				i := slices.Index(g.Header, head)
				if i < 0 {
					t.Fatalf("no %q column in %v", head, g.Header)
				}
				return g.Rows[0][i]
			}
			if b, s, p := cell("build p50"), cell("send p50"), cell("build %"); b != tt.buildP50 || s != tt.sendP50 || p != tt.buildPart {
				t.Errorf("build p50 %s, send p50 %s, build %% %s; want %s, %s, %s", b, s, p, tt.buildP50, tt.sendP50, tt.buildPart)
			}
		})
	}
}

// An external client's own timing (its phase "client") and its workers'
// CPU per operation pool its repetitions too: p50s of 1 ms (100
// operations) and 4 ms (300) pool to 4 ms, not to their median of 2.5 ms;
// 0.1 s and 0.7 s of workers' CPU over 400 operations is 2 ms each.
func TestInsertExternalColumnsPooled(t *testing.T) {
	t.Parallel()
	const ms = int64(1_000_000)
	var runs []result.Run
	for i, c := range []struct {
		ops      int64
		p50      int64
		workersS float64
	}{{100, 1 * ms, 0.1}, {300, 4 * ms, 0.7}} {
		r := fakeRun(t, "ch", "php-seasclick", "insert", i+1, 2, 40*ms, 0, map[string]string{"batch": "100000"})
		r.Ops, r.Errors = c.ops, 0
		r.External = &result.ExternalClient{Language: "php", RTT: result.RTT{P50: 20_000, P99: 50_000}}
		r.Phases = map[string]result.Phase{"client": phase(t, int(c.ops), c.p50)}
		r.Client.WorkersCPUS = c.workersS
		runs = append(runs, r)
	}
	g := runsGrid(runs, insertTable)
	want := map[string]string{"client p50": Nanos(4 * ms), "workers cpu/op": nanos(2e6), "build p50": "-", "rtt p50": Nanos(20_000)}
	for head, w := range want {
		i := slices.Index(g.Header, head)
		if i < 0 || len(g.Rows) != 1 {
			t.Fatalf("no %q column or not one row: %v %v", head, g.Header, g.Rows)
		}
		if got := g.Rows[0][i]; got != w {
			t.Errorf("%s = %s, want %s", head, got, w)
		}
	}
}
