package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// cznicDel is a cznic/kv del cell with fsync on as `dbmeter kv --engines
// cznic/kv --fsync true --ops del` measured it: each 100 ms repetition
// starts one delete per worker, and each waits for the group commit of
// about a second, so every repetition completes 2 operations in 1.02 s.
func cznicDel(reps int) []result.Run {
	var out []result.Run
	for i := range reps {
		r := kvRun("cznic/kv", "del", "true", 1.96, 1_018_000_000)
		r.Repeat, r.Workers, r.Ops, r.DurationS = i+1, 2, 2, 1.02
		r.OpsPerS = 2 / 1.02
		r.Latency.P99 = 1_019_000_000
		out = append(out, r)
	}
	return out
}

// A figure from too few operations is marked; a cell that completed none
// says so instead of showing zeros, in the text and in the grid.
func TestLowCountsAndEmptyCells(t *testing.T) {
	t.Parallel()
	unfinished := kvRun("cznic/kv", "del", "true", 0, 0)
	unfinished.Ops, unfinished.OpsPerS, unfinished.Errors = 0, 0, 2
	unfinished.ErrorKinds = map[string]int64{"unfinished": 2}
	tests := []struct {
		name      string
		runs      []result.Run
		wantTput  string // the throughput cell
		wantP99   string // the p99 cell
		wantEmpty []string
	}{
		{"cznic/kv del with fsync: 14 operations in 7 repetitions", cznicDel(7), "2 ±0%†", "1.02s†", nil},
		{"plenty of operations: no mark", reps(100000, 104000, 98000), "100,667 ±8%", "2.00µs", nil},
		{"a cell that completed nothing", []result.Run{unfinished}, noOps, noOps,
			[]string{"cznic/kv del: no operation completed: 2 operations were still running when the grace after the window ran out: one takes longer than the window and its grace"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := &result.Document{Runs: tt.runs}
			grids := Tables([]Source{{Name: "kv.json", Doc: doc}}, 0)
			if got := grids[0].Rows[0][1]; got != tt.wantTput {
				t.Errorf("throughput cell %q, want %q", got, tt.wantTput)
			}
			p99 := ""
			for _, r := range grids[1].Rows {
				if r[0] == "del p99" || r[0] == "get p99" {
					p99 = r[1]
				}
			}
			if p99 != tt.wantP99 {
				t.Errorf("p99 cell %q, want %q", p99, tt.wantP99)
			}
			var b bytes.Buffer
			if err := Text(&b, doc); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{tt.wantTput, tt.wantP99} {
				if !strings.Contains(b.String(), want) {
					t.Errorf("text lacks %q:\n%s", want, b.String())
				}
			}
			if strings.Contains(tt.wantTput, lowMark) && !strings.Contains(b.String(), lowMark+": from too few operations") {
				t.Errorf("text does not explain %s:\n%s", lowMark, b.String())
			}
			if got := EmptyVariants(doc); strings.Join(got, "|") != strings.Join(tt.wantEmpty, "|") {
				t.Errorf("EmptyVariants = %q, want %q", got, tt.wantEmpty)
			}
		})
	}
}

// fewForPercentile: a percentile q needs 1/(1−q) operations before one
// lies above it.
func TestFewForPercentile(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		q    float64
		ops  int64
		want bool
	}{{0.99, 99, true}, {0.99, 100, false}, {0.999, 999, true}, {0.999, 1000, false}, {0.5, 1, true}, {0.5, 2, false}, {0.99, 0, false}} {
		if got := fewForPercentile(tt.q, tt.ops); got != tt.want {
			t.Errorf("fewForPercentile(%g, %d) = %v, want %v", tt.q, tt.ops, got, tt.want)
		}
	}
}
