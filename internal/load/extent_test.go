package load

import (
	"slices"
	"testing"
	"time"
)

// TestExtentApply: a default extent replaces the run's repetitions and
// duration only when the user gave none of them, nor a field it names in
// Also; any other setting leaves it the default.
func TestExtentApply(t *testing.T) {
	t.Parallel()
	e := Extent{Repeat: 5, Duration: 8 * time.Second, Also: []string{"Rows"}}
	tests := []struct {
		given      []string
		wantRepeat int
		wantDur    time.Duration
	}{
		{nil, 5, 8 * time.Second},
		{[]string{"Workers"}, 5, 8 * time.Second},
		{[]string{"Duration"}, 1, 3 * time.Second},
		{[]string{"Count"}, 1, 3 * time.Second},
		{[]string{"Repeat"}, 1, 3 * time.Second},
		{[]string{"Rows"}, 1, 3 * time.Second},
	}
	for _, tt := range tests {
		repeat, d := e.Apply(func(f string) bool { return slices.Contains(tt.given, f) }, 1, 3*time.Second)
		if repeat != tt.wantRepeat || d != tt.wantDur {
			t.Errorf("given %v: %d × %s; want %d × %s", tt.given, repeat, d, tt.wantRepeat, tt.wantDur)
		}
	}
}
