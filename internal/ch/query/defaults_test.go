package query

import "testing"

// The default experiment queries enough for a p99.9 (1,000 queries) and
// repeats, so that its figures have an interval.
func TestDefaultExperiment(t *testing.T) {
	t.Parallel()
	if n := float64(DefaultRepeat) * DefaultDuration.Seconds() * DefaultRate; n < 1000 || DefaultRepeat < 2 {
		t.Errorf("%d × %s at %d/s is %.0f queries; want at least 1,000, repeated", DefaultRepeat, DefaultDuration, DefaultRate, n)
	}
}
