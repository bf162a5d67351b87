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
