package study

import (
	"fmt"
	"strconv"
	"strings"
)

// describeClaims lists what study run will judge: each claim's text, its
// kind, the cells it reads and its bounds, so that a reader knows before
// a run of many minutes what the run decides.
func describeClaims(b *strings.Builder, s *Study) {
	if len(s.Claims) == 0 {
		return
	}
	fmt.Fprintf(b, "\nclaims (each gets a verdict from study run):\n")
	for _, c := range s.Claims {
		fmt.Fprintf(b, "  %s: %s\n    %s\n", c.ID, oneLine(c.Text), checks(c))
		if c.Note != "" {
			fmt.Fprintf(b, "    note: %s\n", oneLine(c.Note))
		}
	}
}

// checks says in one line what a claim compares.
func checks(c Claim) string {
	var parts []string
	refs := func(name string, rs ...Ref) {
		var s []string
		for _, r := range rs {
			if len(r) > 0 {
				s = append(s, r.String())
			}
		}
		if len(s) > 0 {
			parts = append(parts, name+" "+strings.Join(s, "; "))
		}
	}
	bound := func(name string, x *float64) {
		if x != nil {
			parts = append(parts, name+" "+strconv.FormatFloat(*x, 'g', -1, 64))
		}
	}
	refs("a:", c.A)
	refs("b:", c.B)
	refs("cell:", c.Cell)
	refs("cells:", c.Cells...)
	bound("above", c.Above)
	bound("below", c.Below)
	bound("within", c.Within)
	bound("at", c.At)
	return c.Kind + ": " + strings.Join(parts, ", ")
}
