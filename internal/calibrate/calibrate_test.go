package calibrate

import (
	"testing"
	"time"
)

func TestExpectedQuantile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		q             float64
		period, stall time.Duration
		want          time.Duration
	}{
		{99, time.Second, 100 * time.Millisecond, 90 * time.Millisecond},
		{99.9, time.Second, 100 * time.Millisecond, 99 * time.Millisecond},
		{50, time.Second, 100 * time.Millisecond, 0}, // outside the freezes
		{90, time.Second, 100 * time.Millisecond, 0}, // exactly at the edge
		{99, 5 * time.Second, 200 * time.Millisecond, 150 * time.Millisecond},
	}
	for _, tt := range tests {
		got := ExpectedQuantile(tt.q, tt.period, tt.stall)
		if d := got - tt.want; d > time.Microsecond || d < -time.Microsecond {
			t.Errorf("ExpectedQuantile(%g, %s, %s) = %s, want %s", tt.q, tt.period, tt.stall, got, tt.want)
		}
	}
}
