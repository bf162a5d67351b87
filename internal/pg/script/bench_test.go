package script

import "testing"

// tpcbSets returns a function that evaluates the four \set commands of
// tpcb-like: the per-transaction client cost of the expression engine.
func tpcbSets(tb testing.TB) func() {
	_, s, err := Builtin("tpcb-like", nil)
	if err != nil {
		tb.Fatal(err)
	}
	vars := s.NewVars(map[string]Value{"scale": Int(10)})
	r := NewPRNG(1)
	env := &Env{Vars: vars, Rand: &r}
	return func() {
		for i := range 4 {
			if err := s.Commands[i].Set(env); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

func BenchmarkTPCBSets(b *testing.B) {
	sets := tpcbSets(b)
	b.ReportAllocs()
	for b.Loop() {
		sets()
	}
}

// TestTPCBSetsDoNotAllocate: evaluating tpcb-like's \set commands allocates
// nothing, so the expression engine adds no GC work per transaction. (A
// dispatch through a table of function values made each call's arguments
// escape: 8 allocations per transaction.)
func TestTPCBSetsDoNotAllocate(t *testing.T) {
	if allocs := testing.AllocsPerRun(100, tpcbSets(t)); allocs != 0 {
		t.Errorf("tpcb-like's four \\set commands: %v allocations per run, want 0", allocs)
	}
}
