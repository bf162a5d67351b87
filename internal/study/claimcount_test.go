package study

import "testing"

// minClaims are the claims and the listed sentences each built-in study
// encodes of its seed (docs/studies.md): a study that loses one fails
// here, so a claim dropped or merged away is a decision, made in this file
// too, not an accident of an edit.
var minClaims = map[string]struct{ claims, notChecked, deviations int }{
	"s1": {7, 9, 6},
	"s2": {11, 15, 9},
	"s3": {11, 11, 8},
	"s4": {4, 7, 8},
	"s5": {16, 10, 6},
}

func TestBuiltinClaimCounts(t *testing.T) {
	all, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		want, ok := minClaims[s.ID]
		if !ok {
			t.Errorf("%s: no minimum claim count: add it to minClaims", s.ID)
			continue
		}
		if len(s.Claims) < want.claims || len(s.NotChecked) < want.notChecked || len(s.Deviations) < want.deviations {
			t.Errorf("%s: %d claims, %d sentences not checked, %d deviations; at least %d, %d and %d were encoded",
				s.ID, len(s.Claims), len(s.NotChecked), len(s.Deviations), want.claims, want.notChecked, want.deviations)
		}
		for _, c := range s.Claims {
			if c.Quote == "" {
				t.Errorf("%s claim %s: no quote of the source's words", s.ID, c.ID)
			}
		}
	}
}
