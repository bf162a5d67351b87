package load

import (
	"math"
	"testing"
	"time"
)

func TestConstantSchedule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rate float64
		n    int
		want time.Duration // offset of arrival n
	}{
		{rate: 100, n: 0, want: 0},
		{rate: 100, n: 1, want: 10 * time.Millisecond},
		{rate: 100, n: 500, want: 5 * time.Second},             // 100/s over 5 s
		{rate: 3, n: 1, want: 333333333},                       // rounded, not truncated
		{rate: 3, n: 3_000_000, want: 1_000_000 * time.Second}, // no drift after millions
		{rate: 100_000, n: 100_000, want: time.Second},
	}
	for _, tt := range tests {
		s := NewSchedule(ArrivalConstant, tt.rate, nil)
		var got time.Duration
		for range tt.n + 1 {
			got = s.Next()
		}
		if got != tt.want {
			t.Errorf("constant %g/s arrival %d = %v, want %v", tt.rate, tt.n, got, tt.want)
		}
	}
}

func TestPoissonSchedule(t *testing.T) {
	t.Parallel()
	const rate, n = 1000.0, 200_000
	s := NewSchedule(ArrivalPoisson, rate, Rand(7, 0))
	var last, got time.Duration
	for i := range n {
		got = s.Next()
		if got < last {
			t.Fatalf("arrival %d at %v before arrival %d at %v", i, got, i-1, last)
		}
		last = got
	}
	// The mean gap of n exponential gaps is 1/rate within a few 1/sqrt(n).
	mean := got.Seconds() / (n - 1)
	if rel := math.Abs(mean*rate - 1); rel > 0.02 {
		t.Errorf("poisson mean gap %.6fs, want %.6fs ± 2%%", mean, 1/rate)
	}
	again := NewSchedule(ArrivalPoisson, rate, Rand(7, 0))
	first := NewSchedule(ArrivalPoisson, rate, Rand(7, 0))
	for i := range 100 {
		if a, b := again.Next(), first.Next(); a != b {
			t.Fatalf("same seed, arrival %d: %v != %v", i, a, b)
		}
	}
}

func TestParseArrival(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in      string
		wantErr bool
	}{{"constant", false}, {"poisson", false}, {"", true}, {"uniform", true}} {
		_, err := ParseArrival(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseArrival(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
		}
	}
}
