package study

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Page lays a study's view out once, for every form: report renders it for
// the terminal (report.PageText), as Markdown (report.PageMarkdown) and as
// HTML (report.PageHTML). The verdicts come first, with their reasons and
// notes; then a chart per table of the published figures beside the
// measured ones (HTML only); then the tables, with their intervals and
// marks; then how the run departs from the source, and the environments
// side by side.
func Page(v *View) report.Page {
	s, d := v.Study, v.Doc
	form := "full"
	if d.Quick {
		form = "quick"
	}
	p := report.Page{
		Title: fmt.Sprintf("Study %s: %s", s.ID, s.Title),
		Lines: []string{
			"source: " + oneLine(s.Source),
			fmt.Sprintf("file: %s, sha256 %s", d.File, short(d.SHA256)),
			fmt.Sprintf("%s form, started %s, wall time %s", form, d.StartedAt.Format("2006-01-02 15:04 MST"), time.Duration(d.WallS*float64(time.Second)).Round(time.Second)),
		},
		Marks: map[string]string{Holds: "good", DoesNotHold: "bad", Undecided: "open"},
	}
	if len(s.Deviations) > 0 {
		// The header names every deviation; each is told in full after
		// the tables, where the verdicts that it can move point.
		ids := make([]string, len(s.Deviations))
		for i, d := range s.Deviations {
			ids[i] = d.ID
		}
		p.Lines = append(p.Lines, fmt.Sprintf("deviations from the source (%d, told below): %s", len(ids), strings.Join(ids, ", ")))
	}
	p.Sections = append(p.Sections, verdictSection(v))
	var charts, tables []report.Block
	for i, tv := range v.Tables {
		g := tableGrid(tv)
		tables = append(tables, report.Block{Grid: &g})
		c := tableChart(fmt.Sprintf("chart-%d", i+1), tv)
		charts = append(charts, report.Block{Chart: &c})
	}
	p.Sections = append(p.Sections,
		report.Section{ID: "charts", Title: "Published beside measured", Blocks: charts},
		report.Section{ID: "tables", Title: "Tables", Blocks: tables},
		departures(v), environments(v))
	if lines := MachineLines(d); len(lines) > 0 {
		p.Sections = append(p.Sections, report.Section{ID: "machine", Title: "The machine during the steps", Blocks: []report.Block{{Lines: lines}}})
	}
	p.Sections = append(p.Sections, stepSection(d))
	// A section with nothing to say (no environment published) is left
	// out, heading and all.
	p.Sections = slices.DeleteFunc(p.Sections, func(s report.Section) bool { return len(s.Blocks) == 0 })
	return p
}

// verdictSection is every claim's verdict, with why, the deviations that
// can move it and the transcriber's note; then the source's sentences no
// claim encodes.
func verdictSection(v *View) report.Section {
	b := report.Block{Title: "claims: " + verdictCounts(v.Claims)}
	for _, c := range v.Claims {
		it := report.Item{Mark: c.Verdict, Text: c.Claim.ID + ": " + oneLine(c.Claim.Text),
			Sub: []string{"here: " + c.Reason}}
		it.Sub = append(it.Sub, "on the published figures: "+c.Published)
		if len(c.Deviations) > 0 {
			it.Sub = append(it.Sub, "deviations that can move it: "+strings.Join(c.Deviations, ", "))
		}
		if c.Claim.Note != "" {
			it.Sub = append(it.Sub, "note: "+oneLine(c.Claim.Note))
		}
		b.Items = append(b.Items, it)
	}
	sec := report.Section{ID: "verdicts", Title: "Verdicts", Blocks: []report.Block{b}}
	if len(v.Study.NotChecked) > 0 {
		nc := report.Block{Title: "sentences of the source no claim checks"}
		for _, u := range v.Study.NotChecked {
			it := report.Item{Text: oneLine(u.Text), Sub: []string{"why: " + oneLine(u.Why)}}
			if u.Quote != "" {
				it.Text += " (" + oneLine(u.Quote) + ")"
			}
			nc.Items = append(nc.Items, it)
		}
		sec.Blocks = append(sec.Blocks, nc)
	}
	return sec
}

// departures says how the run departs from the source: the study's
// declared deviations, its scaling, and each step's reason.
func departures(v *View) report.Section {
	sec := report.Section{ID: "departures", Title: "How this run departs from the source"}
	if lines := DeviationLines(v.Study); len(lines) > 0 {
		b := report.Block{Title: "deviations"}
		for _, l := range lines {
			b.Items = append(b.Items, report.Item{Text: l})
		}
		sec.Blocks = append(sec.Blocks, b)
	}
	if v.Study.Scaling != "" {
		sec.Blocks = append(sec.Blocks, report.Block{Title: "scaling", Lines: []string{oneLine(v.Study.Scaling)}})
	}
	var why []report.Item
	for _, st := range v.Study.Steps {
		if st.Why != "" {
			why = append(why, report.Item{Text: st.ID + ": " + oneLine(st.Why)})
		}
	}
	if len(why) > 0 {
		sec.Blocks = append(sec.Blocks, report.Block{Title: "the steps", Items: why})
	}
	return sec
}

// stepSection lists the steps as they ran.
func stepSection(d *Document) report.Section {
	b := report.Block{}
	for _, st := range d.Steps {
		state := fmt.Sprintf("ran %.0f s", st.WallS)
		switch {
		case st.Skipped != "":
			state = "skipped: " + st.Skipped
		case st.Error != "":
			state = "failed: " + st.Error
		case st.Standin:
			state += ", against the protocol stand-in (not a server)"
		}
		b.Items = append(b.Items, report.Item{Text: st.ID + ": " + st.Command, Sub: []string{state}})
	}
	return report.Section{ID: "steps", Title: "Steps", Blocks: []report.Block{b}}
}

// wideTable is the number of published columns past which a table is
// laid out transposed when it has fewer rows than columns: seed 004's
// eleven engines as rows, its five operations across, fit a page 1,400 px
// wide where eleven columns of figures with intervals do not.
const wideTable = 6

// layout is a table's cells in the order its grid shows them: lines
// (published rows, or columns when transposed) of cells across.
type layout struct {
	by, across string   // what the lines and the columns are of
	lines      []string // their labels
	heads      []string
	cell       func(line, col int) Cell
}

func tableLayout(tv TableView) layout {
	t := tv.Table
	rows := make([]string, len(t.rows))
	for i, r := range t.rows {
		rows[i] = r.Label
	}
	if len(t.Header) > wideTable && len(t.Header) > len(rows) {
		return layout{by: t.Columns, across: t.Rows, lines: t.Header, heads: rows,
			cell: func(l, c int) Cell { return tv.Cells[c][l] }}
	}
	return layout{by: t.Rows, across: t.Columns, lines: rows, heads: t.Header,
		cell: func(l, c int) Cell { return tv.Cells[l][c] }}
}

// fieldLabel is how a table's heading names the field name: a setting
// (params.NAME) by its label (result.Label: the flag's spelling for one a
// flag sets, as the reader types it), a run field as it is.
func fieldLabel(name string) string {
	if s, ok := strings.CutPrefix(name, "params."); ok {
		return "params." + result.Label(s)
	}
	return name
}

// tableGrid lays a table out with three lines per label: published,
// measured here (with its interval and marks), and measured over
// published.
func tableGrid(tv TableView) report.Grid {
	t := tv.Table
	l := tableLayout(tv)
	g := report.Grid{Title: fmt.Sprintf("%s: %s (%s, %s)", t.ID, t.Title, t.Figure, t.Unit), Labels: 2,
		Header: append([]string{fieldLabel(l.by) + " \\ " + fieldLabel(l.across), ""}, l.heads...)}
	if t.Measured != "" {
		g.Lines = append(g.Lines, "published: "+oneLine(t.Measured))
	}
	if tv.Note != "" {
		g.Lines = append(g.Lines, "note: "+tv.Note)
	}
	if t.NotComparable != "" {
		g.Lines = append(g.Lines, "not compared: "+oneLine(t.NotComparable))
	}
	for _, row := range slices.Sorted(mapKeys(t.Cannot)) {
		g.Lines = append(g.Lines, row+" cannot run here: "+t.Cannot[row])
	}
	var mk cellMarks
	for i, label := range l.lines {
		pub, here, ratio := []string{label, "published"}, []string{"", "here"}, []string{"", "here/published"}
		for j := range l.heads {
			c := l.cell(i, j)
			pub = append(pub, pubText(c))
			here = append(here, hereText(c, &mk))
			if q, ok := c.Ratio(); ok {
				ratio = append(ratio, fmt.Sprintf("%.2f×", q))
			} else {
				ratio = append(ratio, "-")
			}
		}
		g.Rows = append(g.Rows, pub, here, ratio)
	}
	g.Note = mk.note()
	return g
}

// cellMarks are the marks a table's measured cells got, for its note.
type cellMarks struct {
	interval, spread, few, one bool
}

func (m cellMarks) note() string {
	var parts []string
	if m.interval {
		parts = append(parts, "±: the 95% confidence interval of the cell's repetitions")
	}
	if m.spread {
		parts = append(parts, report.SpreadMarkNote())
	}
	if m.few {
		parts = append(parts, report.FewMarkNote())
	}
	if m.one {
		parts = append(parts, "no ±: one repetition, no interval (the full form repeats)")
	}
	parts = append(parts, "-: no figure (the lines above say why)")
	return strings.Join(parts, "; ")
}

func pubText(c Cell) string {
	if c.Published == nil {
		return "-"
	}
	return num(*c.Published)
}

// hereText is a measured cell: its figure, the ± of its 95 % interval,
// "*" past the family tables' spread mark and "†" from too few
// operations, as kv's tables mark theirs.
func hereText(c Cell, m *cellMarks) string {
	if c.Measured == nil {
		return "-"
	}
	e := c.Measured.Estimate
	s := num(e.Value)
	if sp := e.Spread(); math.IsInf(sp, 1) {
		// The inverse of a rate whose interval reaches zero: no upper
		// bound.
		s += " ±∞*"
		m.interval, m.spread = true, true
	} else if !math.IsNaN(sp) {
		if pc := int(math.Round(100 * sp)); pc > 0 {
			s += " ±" + strconv.Itoa(pc) + "%"
		} else {
			s += " ±<1%"
		}
		m.interval = true
		if e.Flagged() {
			s += "*"
			m.spread = true
		}
	} else if e.N == 1 {
		m.one = true
	}
	if e.Few {
		s += "†"
		m.few = true
	}
	if c.Measured.Standin {
		s += " (stand-in)"
	}
	return s
}

// tableChart is a table's published figures beside its measured ones, a
// row per line of its grid and a panel per column. A table with nothing
// to draw (a chart-only source measured against the stand-in) still has
// its chart, whose title says why it is empty.
func tableChart(id string, tv TableView) report.Chart {
	t := tv.Table
	l := tableLayout(tv)
	drawn := false
	var panels []report.PairPanel
	for j, head := range l.heads {
		p := report.PairPanel{Name: head}
		for i := range l.lines {
			c := l.cell(i, j)
			pub, here, lo, hi := math.NaN(), math.NaN(), math.NaN(), math.NaN()
			if c.Published != nil {
				pub = *c.Published
			}
			if m := c.Measured; m != nil && !m.Standin {
				here = m.Value
				if m.HasInterval() {
					lo, hi = m.Lo, m.Hi
				}
			}
			drawn = drawn || !math.IsNaN(pub) || !math.IsNaN(here)
			p.Published, p.Measured = append(p.Published, pub), append(p.Measured, here)
			p.MeasuredLo, p.MeasuredHi = append(p.MeasuredLo, lo), append(p.MeasuredHi, hi)
		}
		panels = append(panels, p)
	}
	title := fmt.Sprintf("%s (%s, %s, log scale)", t.Title, t.Figure, t.Unit)
	if !drawn {
		title = fmt.Sprintf("%s: nothing to draw, no figure published and none measured here that may be compared", t.Title)
	}
	c := report.PairChart(id, title, l.lines, panels)
	if t.Unit == "ns" {
		c.X = "ns" // axis labels as 50ns, 2.0µs, 1.5ms
	}
	return c
}

// MachineLines says, per step, whether the machine was busy and whether
// its reference drifted past its own spread during the step.
func MachineLines(d *Document) []string {
	var out []string
	for _, st := range d.Steps {
		if st.Result == nil || st.Result.Machine == nil {
			continue
		}
		m := st.Result.Machine
		if l := m.BusyLine(); l != "" {
			out = append(out, "step "+st.ID+": "+l)
		}
		if m.Reference != nil {
			if l := m.Reference.DriftLine(); l != "" {
				out = append(out, "step "+st.ID+": "+l)
			}
		}
	}
	return out
}

// verdictCounts sums the claims up: "holds 2, does not hold 1, cannot be
// checked here 3".
func verdictCounts(cs []ClaimView) string {
	n := map[string]int{}
	for _, c := range cs {
		n[c.Verdict]++
	}
	var parts []string
	for _, v := range VerdictOrder {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, n[v]))
		}
	}
	return strings.Join(parts, ", ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
