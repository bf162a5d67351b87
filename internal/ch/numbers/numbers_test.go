package numbers

import (
	"math"
	"reflect"
	"testing"
)

// TestRing: the rows are the study's ten columns, the same for a seed and
// different for another, and every value is one a worker's language reads
// back as its type: u64 below 2^63 (PHP's integers are signed), floats
// never whole (a whole one would be written without a point).
func TestRing(t *testing.T) {
	a, b, other := Ring(1, 5000, 2), Ring(1, 5000, 2), Ring(2, 5000, 2)
	if !reflect.DeepEqual(a, b) {
		t.Error("two rings of one seed differ")
	}
	if reflect.DeepEqual(a[0].Columns, other[0].Columns) {
		t.Error("rings of two seeds are the same")
	}
	for _, blk := range a {
		if blk.Rows != 5000 || len(blk.Columns) != len(Columns) || blk.PayloadBytes() != 42*5000 {
			t.Fatalf("block of %d rows, %d columns, %d bytes; want 5000 rows of the 10 columns, 42 bytes each", blk.Rows, len(blk.Columns), blk.PayloadBytes())
		}
		for i, c := range blk.Columns {
			if c.Name != Columns[i].Name || c.Type != Columns[i].Type {
				t.Errorf("column %d is %s %s, want %s %s", i, c.Name, c.Type, Columns[i].Name, Columns[i].Type)
			}
		}
		for r := range blk.Rows {
			u64, f32, f64 := blk.Columns[3].Data.([]uint64)[r], blk.Columns[8].Data.([]float32)[r], blk.Columns[9].Data.([]float64)[r]
			if u64 >= 1<<63 || f32 == float32(math.Trunc(float64(f32))) || f64 == math.Trunc(f64) {
				t.Fatalf("row %d: u64 %d, f32 %v, f64 %v", r, u64, f32, f64)
			}
		}
	}
}
