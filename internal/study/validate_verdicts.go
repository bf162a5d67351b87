package study

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file checks the fields verdicts rest on: the claim kinds close,
// difference and crossover, premises, published_only, deviations and
// not_checked. validate.go's validator calls claimKind for a kind it does
// not know and verdictFields once per study.

// ClaimKinds are the kinds a claim may have.
var ClaimKinds = []string{"threshold", "ratio", "ranking", "lowest", "highest", "close", "difference", "crossover", "ratios", "leads"}

// claimKind checks a claim of the kinds close, difference and crossover;
// false for another kind.
func (v *validator) claimKind(f string, c *Claim, tables map[string]*Table) bool {
	switch c.Kind {
	case "close":
		v.cellRef(f+".a", c.A, tables)
		v.cellRef(f+".b", c.B, tables)
		if c.Within == nil || *c.Within <= 0 {
			v.add(f+".within", "a close claim needs within: the band A/B stays in, as a share (0.05: within 5 %% either way)")
		}
	case "difference":
		v.cellRef(f+".a", c.A, tables)
		v.cellRef(f+".b", c.B, tables)
		if c.Above == nil && c.Below == nil {
			v.add(f+".above", "a difference needs above, below or both (A − B, in the table's unit)")
		}
	case "crossover":
		v.rowRefs(f, c, tables, true)
		if c.At == nil {
			v.add(f+".at", "a crossover needs at: the column label's number above which A is better")
		}
	case "ratios":
		v.rowRefs(f, c, tables, false)
		if c.Above == nil && c.Below == nil {
			v.add(f+".above", "ratios need above, below or both")
		}
		if len(c.A) == 2 {
			if t := tables[c.A[0]]; t != nil {
				for i, col := range c.Columns {
					if !slices.Contains(t.Header, col) {
						v.add(fmt.Sprintf("%s.columns[%d]", f, i), "%q is not a column of table %s", col, t.ID)
					}
				}
			}
		}
	case "leads":
		if len(c.Leaders) == 0 || len(c.Cells) == 0 {
			v.add(f+".leaders", "leads needs leaders and cells: each leader better than every cell")
		}
		for i, r := range c.Leaders {
			v.cellRef(fmt.Sprintf("%s.leaders[%d]", f, i), r, tables)
		}
	default:
		return false
	}
	return true
}

// rowRefs checks the a and b of a crossover or ratios: [table, row];
// a crossover's are of one table whose column labels are numbers.
func (v *validator) rowRefs(f string, c *Claim, tables map[string]*Table, crossover bool) {
	for _, side := range []struct {
		field string
		r     Ref
	}{{f + ".a", c.A}, {f + ".b", c.B}} {
		if len(side.r) != 2 {
			v.add(side.field, "want [table, row]: two rows compared column by column")
			continue
		}
		t := tables[side.r[0]]
		if t == nil {
			v.add(side.field, "%q is not a table of this study", side.r[0])
			continue
		}
		if !slices.ContainsFunc(t.rows, func(x Row) bool { return x.Label == side.r[1] }) {
			v.add(side.field, "%q is not a row of table %s", side.r[1], side.r[0])
		}
		numbers := slices.ContainsFunc(t.Header, func(h string) bool {
			_, err := strconv.ParseFloat(strings.ReplaceAll(h, ",", ""), 64)
			return err == nil
		})
		if crossover && !numbers {
			v.add(side.field, "table %s has no column labelled with a number to cross over", side.r[0])
		}
	}
	if crossover && len(c.A) == 2 && len(c.B) == 2 && c.A[0] != c.B[0] {
		v.add(f+".b", "a crossover's rows are of one table: a is of %s", c.A[0])
	}
}

// cellRef checks a [table, row, column] reference.
func (v *validator) cellRef(field string, r Ref, tables map[string]*Table) {
	if len(r) != 3 {
		v.add(field, "want [table, row, column]")
		return
	}
	t := tables[r[0]]
	if t == nil {
		v.add(field, "%q is not a table of this study", r[0])
		return
	}
	if !slices.ContainsFunc(t.rows, func(x Row) bool { return x.Label == r[1] }) {
		v.add(field, "%q is not a row of table %s", r[1], r[0])
	}
	if !slices.Contains(t.Header, r[2]) {
		v.add(field, "%q is not a column of table %s", r[2], r[0])
	}
}

// premiseFields checks one premise, at field f.
func (v *validator) premiseFields(f string, p *Premise, tables map[string]*Table) {
	v.required(f+".what", p.What)
	if !slices.Contains(Evidences, p.Evidence) {
		v.add(f+".evidence", "%q: use %s", p.Evidence, strings.Join(Evidences, " or "))
	}
	share := func(x *float64) bool { return x != nil && *x > 0 && *x < 1 }
	if p.Evidence == "cache_misses" && !share(p.Above) && !share(p.Below) {
		v.add(f+".above", "cache_misses needs above (IO-bound: the least share of block reads that miss the cache) or below (in memory: the most), between 0 and 1")
	}
	if p.Evidence == "measured_seconds" && (p.Above == nil || *p.Above <= 0) {
		v.add(f+".above", "measured_seconds needs above: the least seconds of measured operations each cell needs")
	}
	if p.Evidence == "device_reads" && p.Above == nil && p.Below == nil {
		v.add(f+".above", "device_reads needs above (IO-bound: the least device reads per operation) or below (in memory: the most)")
	}
	for j, r := range p.Cells {
		v.cellRef(fmt.Sprintf("%s.cells[%d]", f, j), r, tables)
	}
}

// verdictFields checks every claim's premise and the deviations and
// not_checked lists.
func (v *validator) verdictFields(s *Study, tables map[string]*Table) {
	claims := map[string]bool{}
	for i := range s.Claims {
		c := &s.Claims[i]
		f := fmt.Sprintf("claims[%d]", i)
		if claims[c.ID] {
			v.add(f+".id", "%q is used by an earlier claim", c.ID)
		}
		claims[c.ID] = true
		if c.Premise != nil {
			v.premiseFields(f+".premise", c.Premise, tables)
		}
		for j := range c.Premises {
			v.premiseFields(fmt.Sprintf("%s.premises[%d]", f, j), &c.Premises[j], tables)
		}
	}
	seen := map[string]bool{}
	for i, d := range s.Deviations {
		f := fmt.Sprintf("deviations[%d]", i)
		v.required(f+".id", d.ID)
		if seen[d.ID] {
			v.add(f+".id", "%q is used by an earlier deviation", d.ID)
		}
		seen[d.ID] = true
		v.required(f+".what", d.What)
		switch d.By {
		case "machine":
		case "file":
			if strings.TrimSpace(d.Why) == "" {
				v.add(f+".why", "a deviation the file chooses needs a reason")
			}
		default:
			v.add(f+".by", "%q: say machine (this machine forces it) or file (the study chooses it, with why)", d.By)
		}
		for j, m := range d.Moves {
			if tables[m] == nil && !claims[m] {
				v.add(fmt.Sprintf("%s.moves[%d]", f, j), "%q is neither a table nor a claim of this study", m)
			}
		}
	}
	for i, u := range s.NotChecked {
		f := fmt.Sprintf("not_checked[%d]", i)
		v.required(f+".text", u.Text)
		v.required(f+".why", u.Why)
	}
}
