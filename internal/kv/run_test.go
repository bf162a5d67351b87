package kv

import (
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// New refuses a sharded run and an unknown shape, naming the fields as
// {Field} for the CLI to spell, and builds each shape it knows.
func TestNewChecksShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		shape   string
		sharded bool
		want    string // "" is a run
	}{
		{"cells", ShapeCells, false, ""},
		{"harness", ShapeHarness, false, ""},
		{"sharded", ShapeCells, true, "kv runs embedded engines on this machine only: drop {Shard} and {StartAt}"},
		{"sharded harness", ShapeHarness, true, "drop {Shard} and {StartAt}"},
		{"unknown shape", "grid", false, `{Shape} must be cells or harness, got "grid"`},
		{"no shape", "", false, `{Shape} must be cells or harness, got ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := harnessOptions("map")
			if tt.shape == ShapeCells {
				o.Ops = []string{"get"}
			}
			o.Shape, o.Sharded = tt.shape, tt.sharded
			r, err := New(o)
			if tt.want == "" {
				if err != nil || r == nil {
					t.Fatalf("New: %v", err)
				}
				if p := r.Plan(t.TempDir()); len(p.Steps) == 0 {
					t.Errorf("the %s plan has no steps", tt.shape)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err) {
				t.Errorf("New: %v; want a usage error with %q", err, tt.want)
			}
		})
	}
}
