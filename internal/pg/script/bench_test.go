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
