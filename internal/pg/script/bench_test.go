package script

import "testing"

// BenchmarkTPCBSets evaluates the four \set commands of tpcb-like: the
// per-transaction client cost of the expression engine.
func BenchmarkTPCBSets(b *testing.B) {
	_, s, err := Builtin("tpcb-like", nil)
	if err != nil {
		b.Fatal(err)
	}
	vars := s.NewVars(map[string]Value{"scale": Int(10)})
	r := NewPRNG(1)
	env := &Env{Vars: vars, Rand: &r}
	b.ReportAllocs()
	for b.Loop() {
		for i := range 4 {
			if err := s.Commands[i].Set(env); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestTPCBSetsDoNotAllocate: evaluating tpcb-like's \set commands allocates
// nothing, so the expression engine adds no GC work per transaction. (A
// dispatch through a table of function values made each call's arguments
// escape: 8 allocations per transaction.)
func TestTPCBSetsDoNotAllocate(t *testing.T) {
	_, s, err := Builtin("tpcb-like", nil)
	if err != nil {
		t.Fatal(err)
	}
	vars := s.NewVars(map[string]Value{"scale": Int(10)})
	r := NewPRNG(1)
	env := &Env{Vars: vars, Rand: &r}
	allocs := testing.AllocsPerRun(100, func() {
		for i := range 4 {
			if err := s.Commands[i].Set(env); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("tpcb-like's four \\set commands: %v allocations per run, want 0", allocs)
	}
}
