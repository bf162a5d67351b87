package event

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dbmeter/dbmeter/internal/ch"
)

func TestDeterministic(t *testing.T) {
	t.Parallel()
	a, b := New(42).Block(500), New(42).Block(500)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("same seed, different rows:\n%.1000s", diff)
	}
	if cmp.Equal(a, New(43).Block(500)) {
		t.Fatal("seeds 42 and 43 gave the same rows")
	}
	// Fill into a reused block continues the stream exactly as Block does.
	g1, g2 := New(5), New(5)
	reused := NewBlock(10)
	for range 3 {
		g1.Fill(reused, 300)
		if diff := cmp.Diff(g2.Block(300), reused); diff != "" {
			t.Fatalf("Fill into a reused block differs from Block:\n%.1000s", diff)
		}
	}
}

func TestShape(t *testing.T) {
	t.Parallel()
	const rows = 20000
	b := New(1).Block(rows)
	if b.Rows != rows || len(b.Columns) != 32 {
		t.Fatalf("block has %d rows, %d columns; want %d, 32", b.Rows, len(b.Columns), rows)
	}
	perRow := float64(b.PayloadBytes()) / rows
	if perRow < 1300 || perRow > 1500 {
		t.Errorf("rows average %.0f bytes, want about 1.4 KB (the seed's 1460)", perRow)
	}
	// Varied, not one repeated row: ids unique, messages and addresses many.
	ids := map[int64]bool{}
	for _, id := range b.Columns[lID].Data.([]int64) {
		ids[id] = true
	}
	if len(ids) != rows {
		t.Errorf("%d distinct lid in %d rows", len(ids), rows)
	}
	for _, c := range []struct {
		col  int
		atLe int
	}{{cEventMsg, rows * 9 / 10}, {cSrcIP, 4000}, {cEventName, 20}} {
		seen := map[string]bool{}
		for _, s := range b.Columns[c.col].Data.([]string) {
			seen[s] = true
		}
		if len(seen) < c.atLe {
			t.Errorf("%s has %d distinct values in %d rows, want at least %d", Columns[c.col].Name, len(seen), rows, c.atLe)
		}
	}
	// Time moves forward.
	occ := b.Columns[lOccurTime].Data.([]int64)
	if occ[rows-1] <= occ[0] {
		t.Errorf("loccurtime did not move: %d .. %d", occ[0], occ[rows-1])
	}
	for i, c := range Columns {
		if b.Columns[i].Name != c.Name || b.Columns[i].Type != c.Type {
			t.Errorf("column %d is %s %s, want %s %s", i, b.Columns[i].Name, b.Columns[i].Type, c.Name, c.Type)
		}
	}
}

func TestRingSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		batch int
		rows  int64
		want  int
	}{
		{100000, 0, 4},
		{100000, 500000, 4},
		{100000, 150000, 2},
		{1000000, 0, 1},
		{1000, 1, 1},
	}
	for _, tt := range tests {
		if got := RingSize(tt.batch, tt.rows); got != tt.want {
			t.Errorf("RingSize(%d, %d) = %d, want %d", tt.batch, tt.rows, got, tt.want)
		}
	}
}

func TestHead(t *testing.T) {
	t.Parallel()
	b := New(3).Block(100)
	h := b.Head(10)
	if h.Rows != 10 || len(h.Columns[0].Data.([]string)) != 10 || len(h.Columns[31].Data.([]int64)) != 10 {
		t.Fatalf("Head(10) has %d rows", h.Rows)
	}
	if b.Head(100) != b || b.Head(200) != b {
		t.Error("Head(n >= rows) should return the block itself")
	}
	var _ *ch.Block = h
}

// BenchmarkGenerate reports the generator's rows/s (one core), to compare
// with the best insert path's rows/s: it must be at least 5 times faster
// so that generating is never the bottleneck (DESIGN S1). Runs do not pay
// for it in the window anyway: blocks are generated before the run.
func BenchmarkGenerate(b *testing.B) {
	g := New(1)
	const rows = 10000
	blk := NewBlock(rows)
	g.Fill(blk, rows)
	b.SetBytes(blk.PayloadBytes())
	b.ReportAllocs()
	for b.Loop() {
		g.Fill(blk, rows)
	}
	b.ReportMetric(float64(b.N)*rows/b.Elapsed().Seconds(), "rows/s")
}
