package study

import (
	"fmt"
	"strings"
	"testing"
)

// TestShowTellsEverything: study show prints every built-in study's
// deviations (what, whose, why, what they can move), every claim (its
// text, the source's words, its note) and every sentence no claim
// encodes with why, each whole, so nothing a verdict rests on is left to
// the file.
func TestShowTellsEverything(t *testing.T) {
	all, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		out := Describe(s)
		want := []string{fmt.Sprintf("deviations from the source (%d):", len(s.Deviations)), fmt.Sprintf("claims (%d):", len(s.Claims))}
		want = append(want, DeviationLines(s)...)
		for _, d := range s.Deviations {
			want = append(want, oneLine(d.What), oneLine(d.Why))
		}
		for _, c := range s.Claims {
			want = append(want, fmt.Sprintf("%s (%s): %s", c.ID, c.Kind, oneLine(c.Text)), oneLine(c.Quote), oneLine(c.Note), oneLine(c.PublishedOnly))
		}
		for _, u := range s.NotChecked {
			want = append(want, oneLine(u.Text), oneLine(u.Quote), "why not: "+oneLine(u.Why))
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("study show %s does not print %q", s.ID, w)
			}
		}
	}
}
