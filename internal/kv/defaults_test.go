package kv

import (
	"testing"
	"time"
)

// A cell's progress has ten snapshots over its window, and never an
// interval under a millisecond.
func TestProgressInterval(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ d, want time.Duration }{
		{100 * time.Millisecond, 10 * time.Millisecond},
		{5 * time.Second, 500 * time.Millisecond},
		{5 * time.Millisecond, time.Millisecond},
		{0, time.Millisecond},
	} {
		if got := ProgressInterval(tt.d); got != tt.want {
			t.Errorf("ProgressInterval(%s) = %s, want %s", tt.d, got, tt.want)
		}
	}
}

// The default load keeps the matrix runnable with its mixed pair (a writer
// and a reader) and short: every cell 30 ms of warm-up and 100 ms measured.
func TestDefaultLoad(t *testing.T) {
	t.Parallel()
	c := DefaultLoad()
	if c.Workers < 2 || c.Duration != 100*time.Millisecond || c.Warmup != 30*time.Millisecond || c.Count != 0 || c.Rate != 0 {
		t.Errorf("DefaultLoad = workers %d, duration %s, warmup %s, count %d, rate %g", c.Workers, c.Duration, c.Warmup, c.Count, c.Rate)
	}
}
