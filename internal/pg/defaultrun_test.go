package pg

import (
	"slices"
	"testing"
)

// The default experiment runs only when the command says nothing of how
// long, how often, or that it runs something else than a measured run.
func TestDefaultRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		given []string
		want  bool
	}{
		{nil, true},
		{[]string{"Clients", "Rate", "LatencyLimit", "SelectOnly"}, true},
		{[]string{"Seconds"}, false},
		{[]string{"PerClient"}, false},
		{[]string{"Repeat"}, false},
		{[]string{"Initialize"}, false},
		{[]string{"Find"}, false},
		{[]string{"Shard"}, false},
		{[]string{"Log", "AggInterval"}, false},
	}
	for _, tt := range tests {
		c := Command{Given: func(f string) bool { return slices.Contains(tt.given, f) }}
		if got := c.DefaultRun(); got != tt.want {
			t.Errorf("given %v: DefaultRun = %v, want %v", tt.given, got, tt.want)
		}
	}
	if !(&Command{}).DefaultRun() {
		t.Error("a command with no Given (none given) does not run the default")
	}
}
