package board

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/study"
)

// board builds a board of synthetic machines.
func board(t *testing.T, o Options, ms ...machine) *Board {
	t.Helper()
	dir := t.TempDir()
	text, sum := tinyStudy(t, nil)
	var files []string
	for _, m := range ms {
		files = append(files, write(t, dir, m.name, studyDoc(t, m, text, sum)))
	}
	b, err := Build(files, o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cell(t *testing.T, b *Board, col string) *Cell {
	t.Helper()
	for _, c := range b.Cells {
		if c.Col == col {
			return c
		}
	}
	t.Fatalf("no cell %s", col)
	return nil
}

// Ranks carry intervals bootstrapped from the repetitions: two machines
// whose repetitions overlap share their ranks; machines far apart do not.
func TestRanksShareWhenIntervalsOverlap(t *testing.T) {
	b := board(t, Options{},
		machine{name: "a", cpuNs: 5e6, map_: reps(1000, 100), btr: reps(1000, 5)},
		machine{name: "b", cpuNs: 5e6, map_: reps(1050, 100), btr: reps(2000, 5)},
		machine{name: "c", cpuNs: 5e6, map_: reps(3000, 100), btr: reps(3000, 5)},
	)
	for _, tc := range []struct {
		col    string
		want   []string // rank text per machine a, b, c
		shared bool
	}{
		{"map", []string{"3 (2–3)", "2 (2–3)", "1"}, true},
		{"btree", []string{"3", "2", "1"}, false},
	} {
		c := cell(t, b, tc.col)
		for i, want := range tc.want {
			if got := rankText(c.Values[i]); got != want {
				t.Errorf("%s, machine %s: rank %q, want %q", tc.col, b.Machines[i].Name, got, want)
			}
		}
		a, bb := c.Values[0], c.Values[1]
		if shared := a.RankLo <= bb.RankHi && bb.RankLo <= a.RankHi; shared != tc.shared {
			t.Errorf("%s: a's ranks %d–%d and b's %d–%d shared = %v, want %v", tc.col, a.RankLo, a.RankHi, bb.RankLo, bb.RankHi, shared, tc.shared)
		}
	}
}

// A machine whose CPU loop is twice as slow and whose CPU-bound cells are
// half as fast is explained by the reference: normalised, its cells fall
// in the baseline's intervals, and the page says so. One whose cells are
// slower than its probe says is not, and the page says by how much.
func TestNormalisedViewExplainsASlowCPU(t *testing.T) {
	b := board(t, Options{Baseline: "plain"},
		machine{name: "plain", cpuNs: 5e6, map_: reps(1000, 20), btr: reps(500, 10)},
		machine{name: "half", cpuNs: 10e6, map_: reps(500, 10), btr: reps(250, 5)},
		machine{name: "slower", cpuNs: 10e6, map_: reps(250, 5), btr: reps(125, 3)},
	)
	if len(b.Kinds) != 1 || b.Kinds[0].Dep == nil || b.Kinds[0].Dep.Probe != ProbeCPU {
		t.Fatalf("kinds %+v: want one, CPU-bound", b.Kinds)
	}
	k := b.Kinds[0]
	half, slower := k.Explanation(b, 1), k.Explanation(b, 2)
	if r := k.Rows[1]; r.Within != 2 || r.RawWithin != 0 || !strings.Contains(half, "the reference explains the difference") {
		t.Errorf("half: %d of %d cells within once normalised (%d raw): %s", r.Within, r.Compare, r.RawWithin, half)
	}
	if r := k.Rows[2]; r.Within != 0 || !strings.Contains(slower, "still 50 % off the baseline") {
		t.Errorf("slower: %d cells within once normalised: %s", r.Within, slower)
	}
	if math.IsNaN(k.Explained) || k.Explained < 0.5 {
		t.Errorf("the reference explains %.2f of the spread, want most of it", k.Explained)
	}
}

// A missing cell is shown as missing and never counted as fast: the
// headline summary counts only the cells every machine has, and the
// penalised one counts it at the penalty.
func TestMissingCellIsNeverFast(t *testing.T) {
	b := board(t, Options{},
		machine{name: "a", cpuNs: 5e6, map_: reps(1000, 20), btr: reps(500, 10)},
		machine{name: "b", cpuNs: 5e6, map_: reps(1000, 20)},
	)
	k := b.Kinds[0]
	if k.Common != 1 || k.Rows[1].Missing != 1 {
		t.Fatalf("common %d, b missing %d: want 1 and 1", k.Common, k.Rows[1].Missing)
	}
	// b: map at the best (1), btree missing at PenaltyFactor × the worst (1).
	if p, want := k.Rows[1].Penalised, math.Sqrt(PenaltyFactor); math.Abs(p-want) > 1e-9 || k.Rows[0].Penalised != 1 {
		t.Errorf("penalised means a %.3f, b %.3f, want 1 and %.3f: a missing cell counted as fast", k.Rows[0].Penalised, p, want)
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `class="miss" colspan="4" title="no run for this cell">missing</td>`) {
		t.Error("the page does not show b's btree cell as missing")
	}
}

// Every verdict study gives a claim is one of the board's four.
func TestVerdictKinds(t *testing.T) {
	for _, tc := range []struct{ study, board string }{
		{study.Holds, Held}, {study.DoesNotHold, NotHeld}, {study.Undecided, Undecided}, {study.CannotCheck, NotChecked},
	} {
		if got := verdictOf(tc.study); got != tc.board {
			t.Errorf("%q counted as %q, want %q", tc.study, got, tc.board)
		}
	}
}
