package kv

import (
	"slices"
	"testing"
	"time"
)

// TestHarnessDefaults: the harness shape replaces only the settings the
// user left unset (all phases, one run, no warm-up) and records what
// runs; a setting given is kept, and options that record nothing are
// left so.
func TestHarnessDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		given      []string
		flags      map[string]string
		wantOps    []string
		wantRepeat int
		wantWarmup time.Duration
		wantFlags  map[string]string
	}{
		{"none given", nil, map[string]string{"repeat": "5", "warmup": "30ms"}, nil, 1, 0, map[string]string{"repeat": "1", "warmup": "0s"}},
		{"all given", []string{"Ops", "Repeat", "Warmup"}, map[string]string{"repeat": "5", "warmup": "30ms"}, []string{"set"}, 5, 30 * time.Millisecond, map[string]string{"repeat": "5", "warmup": "30ms"}},
		{"repeat given", []string{"Repeat"}, map[string]string{"repeat": "5", "warmup": "30ms"}, nil, 5, 0, map[string]string{"repeat": "5", "warmup": "0s"}},
		{"nothing recorded", nil, nil, nil, 1, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := MatrixOptions{Ops: []string{"set"}, Repeat: 5, Flags: tt.flags, Given: func(f string) bool { return slices.Contains(tt.given, f) }}
			o.Load.Warmup = 30 * time.Millisecond
			got := o.harnessDefaults()
			if !slices.Equal(got.Ops, tt.wantOps) || got.Repeat != tt.wantRepeat || got.Load.Warmup != tt.wantWarmup {
				t.Errorf("ops %v, repeat %d, warm-up %s; want %v, %d, %s", got.Ops, got.Repeat, got.Load.Warmup, tt.wantOps, tt.wantRepeat, tt.wantWarmup)
			}
			for k, v := range tt.wantFlags {
				if got.Flags[k] != v {
					t.Errorf("recorded %s = %q; want %q", k, got.Flags[k], v)
				}
			}
		})
	}
}
