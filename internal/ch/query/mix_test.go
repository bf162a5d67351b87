package query

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// TestParseMix: the query file's format, line by line.
func TestParseMix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		want       []MixQuery // Name, SQL, Weight, Line
		err        string
	}{
		{"clickhouse-benchmark's: one query per line", "SELECT 1\nSELECT 2\n",
			[]MixQuery{{"q1", "SELECT 1", 1, 1}, {"q2", "SELECT 2", 1, 2}}, ""},
		{"weights, blanks and comments", "# hot and cold\n\n3 SELECT count() FROM t\n1\tSELECT sum(x) FROM t\n  # indented comment\n",
			[]MixQuery{{"q1", "SELECT count() FROM t", 3, 3}, {"q2", "SELECT sum(x) FROM t", 1, 4}}, ""},
		{"a query keeps its inner spaces and #", "2   SELECT '#',  1\n",
			[]MixQuery{{"q1", "SELECT '#',  1", 2, 1}}, ""},
		{"empty", "\n# nothing\n", nil, "no query in it"},
		{"zero weight", "SELECT 1\n0 SELECT 2\n", nil, `line 2: weight "0"`},
		{"weight alone", "5\n", nil, `line 1: "5" is a weight without a query`},
		{"not a number", "3x SELECT 1\n", nil, `line 1: weight "3x"`},
		{"placeholders", "SELECT ? + 1\n", nil, "line 1: the query has 1 ? placeholders"},
		{"too many", strings.Repeat("SELECT 1\n", MaxMixQueries+1), nil, "line 256: more than 255 queries"},
	}
	for _, tc := range tests {
		got, err := ParseMix(strings.NewReader(tc.file))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d queries %+v, want %+v", tc.name, len(got), got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: query %d = %+v, want %+v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}

// TestMixPicker: each arrival's pick depends on the seed and its number
// only, and the shares converge on the weights.
func TestMixPicker(t *testing.T) {
	t.Parallel()
	mix := []MixQuery{{Weight: 6}, {Weight: 3}, {Weight: 1}}
	p := newMixPicker(mix, 42)
	const n = 100_000
	counts := make([]int, len(mix))
	seq := make([]int, 64)
	for i := range uint64(n) {
		k := p.pick(i)
		counts[k]++
		if i < 64 {
			seq[i] = k
		}
	}
	for i, want := range []float64{0.6, 0.3, 0.1} {
		if got := float64(counts[i]) / n; got < want-0.01 || got > want+0.01 {
			t.Errorf("query %d drawn %.3f of the time, want %.1f (weights 6:3:1)", i, got, want)
		}
	}
	again := newMixPicker(mix, 42)
	other := newMixPicker(mix, 43)
	same, differ := true, false
	for i := range uint64(64) {
		same = same && again.pick(i) == seq[i]
		differ = differ || other.pick(i) != seq[i]
	}
	if !same {
		t.Error("the same seed drew another sequence")
	}
	if !differ {
		t.Error("seeds 42 and 43 drew the same 64 picks")
	}
}

// countingQuerier records the queries it is asked.
type countingQuerier struct {
	mu   sync.Mutex
	seen map[string]int
}

func (q *countingQuerier) Query(_ context.Context, sql string, _ ...any) (QueryStats, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.seen[sql]++
	return QueryStats{Rows: 1}, nil
}
func (q *countingQuerier) Pool() PoolStats { return PoolStats{} }
func (q *countingQuerier) Close() error    { return nil }

// TestMixWorkload: each query of the file is an operation of its own, and
// the operation a worker reports is the query it sent.
func TestMixWorkload(t *testing.T) {
	t.Parallel()
	mix := []MixQuery{{Name: "q1", SQL: "SELECT 1", Weight: 1}, {Name: "q2", SQL: "SELECT 2", Weight: 3}}
	q := &countingQuerier{seen: map[string]int{}}
	wl := NewMixWorkload(q, mix, 7, false)
	if ops := wl.Ops(); len(ops) != 2 || ops[0] != "q1" || ops[1] != "q2" {
		t.Fatalf("ops %q, want q1 q2", ops)
	}
	w, _ := wl.NewWorker(context.Background(), 0, rand.New(rand.NewPCG(1, 2)))
	byOp := map[uint8]int{}
	for range 400 {
		out, err := w.Do(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		byOp[out.Op]++
	}
	if byOp[0] != q.seen["SELECT 1"] || byOp[1] != q.seen["SELECT 2"] || byOp[0]+byOp[1] != 400 {
		t.Errorf("operations %v, queries sent %v: each outcome must name the query sent", byOp, q.seen)
	}
	if byOp[1] < 2*byOp[0] {
		t.Errorf("weights 1:3 drew %v", byOp)
	}
}
