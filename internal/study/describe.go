package study

import (
	"fmt"
	"strings"
)

// DeviationLines are a study's declared deviations, one a line: what
// differs, whose it is (the machine's, or the file's with its reason)
// and what it can move.
func DeviationLines(s *Study) []string {
	var out []string
	for _, d := range s.Deviations {
		by := "forced by this machine"
		if d.By == "file" {
			by = "the file's choice: " + oneLine(d.Why)
		} else if d.Why != "" {
			by += ": " + oneLine(d.Why)
		}
		l := fmt.Sprintf("%s: %s (%s)", d.ID, oneLine(d.What), by)
		if len(d.Moves) > 0 {
			l += "; can move " + strings.Join(d.Moves, ", ")
		}
		out = append(out, l)
	}
	return out
}

// describeVerdicts is study show's account of the deviations, every
// claim in full and the sentences no claim encodes.
func describeVerdicts(s *Study) string {
	var b strings.Builder
	if lines := DeviationLines(s); len(lines) > 0 {
		fmt.Fprintf(&b, "\ndeviations from the source (%d):\n", len(lines))
		for _, l := range lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	fmt.Fprintf(&b, "\nclaims (%d):\n", len(s.Claims))
	for i := range s.Claims {
		c := &s.Claims[i]
		fmt.Fprintf(&b, "  %s (%s): %s\n", c.ID, c.Kind, oneLine(c.Text))
		if c.Quote != "" {
			fmt.Fprintf(&b, "    source: %s\n", oneLine(c.Quote))
		}
		fmt.Fprintf(&b, "    checks: %s\n", checks(c))
		for _, p := range c.premises() {
			fmt.Fprintf(&b, "    premise: %s (evidence: %s)\n", oneLine(p.What), p.Evidence)
		}
		if c.PublishedOnly != "" {
			fmt.Fprintf(&b, "    judged on the published figures only: %s\n", oneLine(c.PublishedOnly))
		}
		if c.Note != "" {
			fmt.Fprintf(&b, "    note: %s\n", oneLine(c.Note))
		}
	}
	if len(s.NotChecked) > 0 {
		fmt.Fprintf(&b, "\nsentences of the source no claim encodes (%d):\n", len(s.NotChecked))
		for _, u := range s.NotChecked {
			fmt.Fprintf(&b, "  %s\n", oneLine(u.Text))
			if u.Quote != "" {
				fmt.Fprintf(&b, "    source: %s\n", oneLine(u.Quote))
			}
			fmt.Fprintf(&b, "    why not: %s\n", oneLine(u.Why))
		}
	}
	return b.String()
}

// checks says in words what a claim compares.
func checks(c *Claim) string {
	refs := func(rs []Ref) string {
		parts := make([]string, len(rs))
		for i, r := range rs {
			parts[i] = r.String()
		}
		return strings.Join(parts, ", ")
	}
	switch c.Kind {
	case "threshold":
		return fmt.Sprintf("each of %s %s", refs(c.Cells), bound(c.Above, c.Below))
	case "ratio":
		return fmt.Sprintf("(%s) / (%s) %s", c.A, c.B, bound(c.Above, c.Below))
	case "ratios":
		cols := "every column"
		if len(c.Columns) > 0 {
			cols = "each of the columns " + strings.Join(c.Columns, ", ")
		}
		return fmt.Sprintf("(%s) / (%s) in %s %s", c.A, c.B, cols, bound(c.Above, c.Below))
	case "close":
		return fmt.Sprintf("(%s) / (%s) within %s %% of 1", c.A, c.B, num(100**c.Within))
	case "difference":
		return fmt.Sprintf("(%s) − (%s) %s", c.A, c.B, bound(c.Above, c.Below))
	case "ranking":
		return "in this order, highest first: " + refs(c.Cells)
	case "lowest", "highest":
		return fmt.Sprintf("%s %s of itself and %s", c.Cell, c.Kind, refs(c.Cells))
	case "leads":
		return fmt.Sprintf("each of %s better than each of %s", refs(c.Leaders), refs(c.Cells))
	case "crossover":
		return fmt.Sprintf("%s better than %s in every column above %s, worse below it", c.A, c.B, num(*c.At))
	}
	return c.Kind
}

func bound(above, below *float64) string {
	switch {
	case above != nil && below != nil:
		return fmt.Sprintf("between %s and %s", num(*above), num(*below))
	case above != nil:
		return "above " + num(*above)
	case below != nil:
		return "below " + num(*below)
	}
	return ""
}
