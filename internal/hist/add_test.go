package hist

import (
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// TestAdd: Add is the sum of its inputs' values, starts a sum from
// nothing with the first histogram itself, skips nil and empty inputs,
// and counts (never hides) the values of a histogram that is not of
// dbmeter's range.
func TestAdd(t *testing.T) {
	t.Parallel()
	of := func(vs ...int64) *hdrhistogram.Histogram {
		h := New()
		for _, v := range vs {
			h.RecordValue(v)
		}
		return h
	}
	wider := hdrhistogram.New(Lowest, 10*Highest, Digits) // not dbmeter's: holds more than an hour
	wider.RecordValue(1000)
	wider.RecordValue(2 * Highest)
	tests := []struct {
		name        string
		sum, from   *hdrhistogram.Histogram
		wantSame    string // "sum" or "from": which input Add returns; "" neither is nil
		wantCount   int64
		wantMax     int64
		wantDropped int64
	}{
		{"two histograms", of(10, 20), of(30), "sum", 3, 30, 0},
		{"nothing yet: from is the sum", nil, of(10, 20), "from", 2, 20, 0},
		{"nothing yet and nothing to add", nil, nil, "", 0, 0, 0},
		{"a nil from adds nothing", of(10), nil, "sum", 1, 10, 0},
		{"an empty from adds nothing", of(10), New(), "sum", 1, 10, 0},
		{"a value beyond dbmeter's range is counted lost", of(10), wider, "sum", 2, 1000, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum, from := tt.sum, tt.from
			got, dropped := Add(sum, from)
			if dropped != tt.wantDropped {
				t.Errorf("dropped %d, want %d", dropped, tt.wantDropped)
			}
			switch tt.wantSame {
			case "sum":
				if got != sum {
					t.Errorf("returned a new histogram, want the sum itself")
				}
			case "from":
				if got != from {
					t.Errorf("returned a new histogram, want from itself")
				}
			default:
				if got != nil {
					t.Fatalf("returned %v, want nil", got)
				}
				return
			}
			if got.TotalCount() != tt.wantCount || !got.ValuesAreEquivalent(got.Max(), tt.wantMax) {
				t.Errorf("sum has %d values, max %d; want %d, max %d", got.TotalCount(), got.Max(), tt.wantCount, tt.wantMax)
			}
		})
	}
}
