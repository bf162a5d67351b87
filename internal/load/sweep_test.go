package load_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Workers or a rate given as a list of several values are a sweep, which
// only a command that sweeps them takes.
func TestOptionsResolveLists(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		listed, sweeps bool
		want           string // "" resolves
	}{
		{"one value", false, false, ""},
		{"one value where lists sweep", false, true, ""},
		{"a list swept", true, true, ""},
		{"a list not swept", true, false, "{Workers} and {Rate} take one value for this command"},
	}
	for _, tt := range tests {
		o := load.Options{Config: load.DefaultConfig(), Arrival: string(load.ArrivalConstant), Repeat: 1, Listed: tt.listed, Sweeps: tt.sweeps}
		_, err := o.Resolve(func(string) bool { return false }, false, time.Now())
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err)) {
			t.Errorf("%s: Resolve = %v, want %q", tt.name, err, tt.want)
		}
	}
}
