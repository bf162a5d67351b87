package study

import (
	"fmt"
	"math"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Verdicts a claim can get.
const (
	Holds        = "holds"
	DoesNotHold  = "does not hold"
	CannotCheck  = "cannot be checked here"
	notPublished = "not in the published figures"
)

// View is a study's tables and claims evaluated over one result document.
type View struct {
	Study  *Study
	Doc    *Document
	Tables []TableView
	Claims []ClaimView
}

// TableView is one table's cells.
type TableView struct {
	Table *Table
	// Cells are indexed by published row, then column.
	Cells [][]Cell
	// Note says what holds for the whole table (a skipped step, the
	// stand-in).
	Note string
}

// Cell is one published figure and its measured counterpart.
type Cell struct {
	Published *float64
	// Measured carries the figure with its 95 % interval and
	// repetitions (Measured.Estimate).
	Measured *Measured
	// Why says why there is no measured figure, or why it is not compared.
	Why string

	// runs are the cell's runs, the evidence a claim's premise reads.
	runs []*result.Run
}

// Ratio is measured over published, when the two may be compared.
func (c Cell) Ratio() (float64, bool) {
	if c.Published == nil || c.Measured == nil || c.Measured.Standin || c.Why != "" || *c.Published == 0 {
		return 0, false
	}
	return c.Measured.Value / *c.Published, true
}

// ClaimView is a claim's verdict here and on the published figures.
type ClaimView struct {
	Claim *Claim
	// Verdict is Holds, DoesNotHold, Undecided or CannotCheck; Reason
	// gives the compared quantities with their 95 % intervals.
	Verdict string
	Reason  string
	// Published is the verdict on the published figures.
	Published string
	// Need is, for an undecided verdict, the repetitions per cell
	// estimated to decide it (0: unknown).
	Need int
	// Deviations are the ids of the declared deviations that can move
	// the verdict.
	Deviations []string
}

// Evaluate puts doc's measured figures beside s's published ones and
// gives each claim its verdict.
func Evaluate(s *Study, doc *Document) *View {
	v := &View{Study: s, Doc: doc}
	steps := map[string]*StepRun{}
	for i := range doc.Steps {
		steps[doc.Steps[i].ID] = &doc.Steps[i]
	}
	for i := range s.Tables {
		v.Tables = append(v.Tables, tableView(&s.Tables[i], steps))
	}
	for i := range s.Claims {
		v.Claims = append(v.Claims, v.judge(&s.Claims[i]))
	}
	return v
}

func tableView(t *Table, steps map[string]*StepRun) TableView {
	tv := TableView{Table: t}
	var runs []*result.Run
	var why []string
	standin := false
	for _, id := range t.StepIDs() {
		sr := steps[id]
		switch {
		case sr == nil:
			why = append(why, "step "+id+" did not run")
		case sr.Skipped != "":
			why = append(why, "step "+id+" skipped: "+sr.Skipped)
		case sr.Result == nil:
			why = append(why, "step "+id+" failed: "+sr.Error)
		default:
			runs = append(runs, t.selectRuns(sr.Result.Runs)...)
			if sr.Error != "" {
				why = append(why, "step "+id+" failed part way: "+sr.Error)
			}
			if sr.Interrupted {
				why = append(why, "step "+id+" interrupted: its figures cover the part that ran")
			}
			standin = standin || sr.Standin
		}
	}
	tv.Note = strings.Join(why, "; ")
	if standin {
		tv.Note = strings.TrimPrefix(tv.Note+"; measured against the protocol stand-in, not a server ("+NoModern+"): printed, never compared", "; ")
	}
	for _, row := range t.rows {
		cells := make([]Cell, len(t.Header))
		for j, col := range t.Header {
			c := Cell{}
			if j < len(row.Values) && row.Values[j] != nil && (t.Missing == nil || *row.Values[j] != *t.Missing) {
				c.Published = row.Values[j]
			}
			c.Measured, c.Why = measuredCell(t, runs, tv.Note, row.Label, col)
			c.runs = t.cellRuns(runs, row.Label, col)
			if c.Measured != nil {
				c.Measured.Standin = standin
			}
			if c.Why == "" && standin {
				c.Why = "stand-in"
			} else if c.Why == "" && t.NotComparable != "" {
				c.Why = "not comparable: " + t.NotComparable
			}
			cells[j] = c
		}
		tv.Cells = append(tv.Cells, cells)
	}
	return tv
}

// measuredCell finds one cell's runs, or says why there are none.
func measuredCell(t *Table, runs []*result.Run, stepNote, row, col string) (*Measured, string) {
	if why, ok := t.Cannot[row]; ok {
		return nil, "cannot run: " + why
	}
	cr := t.cellRuns(runs, row, col)
	if len(cr) == 0 {
		if stepNote != "" {
			return nil, stepNote
		}
		for _, l := range []struct{ label, by string }{{row, t.Rows}, {col, t.Columns}} {
			if strings.HasPrefix(t.Names[l.label], "#") && t.key(l.label, l.by, runs) == "" {
				n := distinct(runs, l.by)
				if n == 1 {
					return nil, fmt.Sprintf("one server: the runs have one %s and this cell is the %s (give study run the DSN of each server)", l.by, t.Names[l.label])
				}
				return nil, fmt.Sprintf("the runs have %d %ss and this cell is the %s (give study run the DSN of each server)", n, l.by, t.Names[l.label])
			}
		}
		return nil, "no run for this cell"
	}
	m, ok := measure(t.Figure, t.Unit, cr)
	if !ok {
		return nil, "the runs have no " + t.Figure
	}
	if t.Multiply != 0 {
		m.Estimate = m.Scale(t.Multiply)
	}
	return &m, ""
}

func distinct(runs []*result.Run, by string) int {
	seen := map[string]bool{}
	for _, r := range runs {
		seen[field(r, by)] = true
	}
	return len(seen)
}

// cell finds a table's cell by reference.
func (v *View) cell(r Ref) (Cell, bool) {
	for _, tv := range v.Tables {
		if tv.Table.ID != r[0] {
			continue
		}
		for i, row := range tv.Table.rows {
			for j, col := range tv.Table.Header {
				if row.Label == r[1] && col == r[2] {
					return tv.Cells[i][j], true
				}
			}
		}
	}
	return Cell{}, false
}

// num prints a figure with three significant digits and thousands kept
// whole.
func num(x float64) string {
	switch a := math.Abs(x); {
	case math.IsNaN(x):
		return "-"
	case a >= 1000:
		return fmt.Sprintf("%.0f", x)
	case a >= 100:
		return fmt.Sprintf("%.1f", x)
	case a >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.3g", x)
}
