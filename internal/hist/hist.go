package hist

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram bounds, shared by every histogram dbmeter keeps so that any two
// can be merged: 1 ns to 1 h at 3 significant digits.
const (
	Lowest  = 1
	Highest = int64(time.Hour)
	Digits  = 3
)

// New returns an empty histogram with dbmeter's bounds.
func New() *hdrhistogram.Histogram {
	return hdrhistogram.New(Lowest, Highest, Digits)
}

// Add adds from to sum and returns the sum, with how many of from's values
// it could not hold. It is the one place dbmeter adds histograms: a Set's
// operations, the shards of a test, their interval logs.
//
// A nil sum starts one: Add returns from itself, not a copy, so a loop
// over histograms the caller owns (decoded, or read from a log) needs no
// first case. A nil or empty from adds nothing.
//
// Every histogram dbmeter makes has its bounds (Lowest to Highest), so a
// value sum cannot hold means from was not made by dbmeter: the count
// lost lets the caller say which input it was instead of losing values
// without a word.
func Add(sum, from *hdrhistogram.Histogram) (_ *hdrhistogram.Histogram, dropped int64) {
	if sum == nil {
		return from, 0
	}
	if from == nil || from.TotalCount() == 0 {
		return sum, 0
	}
	return sum, sum.Merge(from)
}

// clamp keeps v inside the trackable range: RecordValue silently refuses
// values outside it, and a refused value would be a lost operation.
func clamp(v int64) int64 {
	if v < Lowest {
		return Lowest
	}
	if v > Highest {
		return Highest
	}
	return v
}

// Record records v in h, kept inside the trackable range.
func Record(h *hdrhistogram.Histogram, v int64) { h.RecordValue(clamp(v)) }
