package pg

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Asked to show a built-in script, Execute prints it on stderr as pgbench
// does, an abbreviation of its name included, and runs nothing: no server
// is reached and no output opened; a name that matches none is the user's
// mistake, listing the ones there are.
func TestExecuteShowsScript(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, want string
		isUsage    bool
	}{
		{"select-only", "-- select-only: <builtin: select only>\n\\set aid random(1, 100000 * :scale)", false},
		{"tpcb", "-- tpcb-like: <builtin: TPC-B (sort of)>\n", false},
		{"nosuch", `no builtin script found for name "nosuch"; available builtin scripts:`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stderr bytes.Buffer
			c := DefaultCommand()
			c.ShowScript, c.Stderr = tt.name, &stderr
			c.Given = func(field string) bool { return field == "ShowScript" }
			opened := false
			err := c.Execute(context.Background(), nil, Exec{Open: func(string, ...string) (plan.Output, error) {
				opened = true
				return nil, nil
			}})
			if opened {
				t.Error("Execute opened the outputs to show a script")
			}
			if tt.isUsage {
				if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Execute: %v; want a usage error with %q", err, tt.want)
				}
				return
			}
			if err != nil || !strings.HasPrefix(stderr.String(), tt.want) {
				t.Errorf("Execute: %v, stderr %q; want it to start %q", err, stderr.String(), tt.want)
			}
		})
	}
}
