package result

import (
	"slices"
	"testing"
)

func TestMatchesDeclaredNames(t *testing.T) {
	declared := []string{"batch", "*.*", "script_*_ops"}
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"batch", true},
		{"batches", false},
		{"pebble.cache_size", true}, // an engine's knob
		{"btree:memory.degree", true},
		{"script_0_ops", true},
		{"script_0_errors", false},
		{"", false},
	} {
		if got := Matches(tt.name, declared); got != tt.want {
			t.Errorf("Matches(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Each family is declared once, each of its names once, so that a rename
// is one edit.
func TestFamiliesDeclareEachNameOnce(t *testing.T) {
	var fams []string
	for _, f := range Families() {
		if slices.Contains(fams, f.Family) {
			t.Errorf("family %s declared twice", f.Family)
		}
		fams = append(fams, f.Family)
		for kind, list := range map[string][]string{"setting": f.Settings, "phase": f.Phases, "extra": f.Extras} {
			for i, n := range list {
				if slices.Contains(list[:i], n) {
					t.Errorf("%s declares the %s %q twice", f.Family, kind, n)
				}
			}
		}
	}
}
