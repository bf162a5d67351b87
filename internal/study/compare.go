package study

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Comparison is two runs of one study, cell by cell: B over A.
type Comparison struct {
	Study    *Study
	A, B     *Document
	SameFile bool
	Cells    []CellRatio
	// Kinds are the geometric means of the cells' ratios, one per kind of
	// figure. They are never pooled across kinds: a throughput and its time
	// per operation are one measurement inverted, and pooled they cancel
	// (two s5 runs: 0.925 for the throughputs, 1.137 for the times, 1.023
	// pooled).
	Kinds []KindMean
	// LeftOut names the steps whose cells are not compared: failed or
	// interrupted on either side, so their figures are not the study's.
	LeftOut []string
	// Faster and Slower count the cells where B was faster (a higher rate
	// or a lower latency or time) and slower, of Compared.
	Faster, Slower, Compared int
	// Machine says, per step, how much of the difference the machines
	// explain (result.MachineExplains over the step's two documents).
	Machine []string
}

// KindMean is the geometric mean of B/A over the cells of one kind of
// figure, with the 95 % interval of the mean of their logarithms.
type KindMean struct {
	// Kind is throughput, rows, bytes, latency, time, spread or other.
	Kind string
	// Higher says a higher figure of this kind is better (a rate).
	Higher                bool
	Cells, Faster, Slower int
	GeoMean, GeoLo, GeoHi float64
}

// CellRatio is one measured cell in both runs.
type CellRatio struct {
	Table, Row, Column string
	Figure, Unit       string
	// Kind is the figure's kind (figureKind): cells are averaged per kind.
	Kind  string
	A, B  float64
	Ratio float64
	// Lo and Hi bound the ratio's 95 % interval (report.Ratio: the two
	// cells' intervals propagated); NaN when a side has none.
	Lo, Hi float64
	// Excludes1 marks a cell whose interval excludes 1: a difference the
	// repetitions' spread does not explain.
	Excludes1 bool
}

// figureKind sorts a figure into the kinds a comparison averages over
// apart: a rate of operations, of rows, of bytes; a latency; a time per
// operation derived from the throughput (its inverse, seed 004's "time");
// a spread in per cent.
func figureKind(name string) (kind string, higher bool) {
	f, ok := report.LookupFigure(name)
	switch {
	case !ok || f.Base == "":
		return "other", f.Higher
	case name == "per_worker_ns":
		return "time", false
	case f.Base == "ns":
		return "latency", false
	case name == "rows_s":
		return "rows", true
	case f.Base == "B/s":
		return "bytes", true
	case f.Base == "/s":
		return "throughput", true
	case f.Base == "%":
		return "spread", false
	}
	return "other", f.Higher
}

// Compare puts two result documents of study s side by side.
func Compare(s *Study, a, b *Document) *Comparison {
	c := &Comparison{Study: s, A: a, B: b, SameFile: a.SHA256 == b.SHA256}
	bad := unfinished(a, b)
	for _, st := range s.Steps {
		if why, ok := bad[st.ID]; ok {
			c.LeftOut = append(c.LeftOut, "step "+st.ID+": "+why)
		}
	}
	va, vb := Evaluate(s, a), Evaluate(s, b)
	seen := map[string]bool{}
	speedups := map[string][]float64{}
	for ti, ta := range va.Tables {
		t := ta.Table
		if slices.ContainsFunc(t.StepIDs(), func(id string) bool { _, ok := bad[id]; return ok }) {
			continue
		}
		for i, row := range t.rows {
			for j, col := range t.Header {
				key := strings.Join([]string{t.Step, fmt.Sprint(t.Multiply), t.Figure, t.Unit, fmt.Sprint(t.Where), row.Label, col}, "\x00")
				ma, mb := ta.Cells[i][j].Measured, vb.Tables[ti].Cells[i][j].Measured
				if seen[key] || ma == nil || mb == nil || ma.Value <= 0 || mb.Value <= 0 {
					continue
				}
				seen[key] = true
				q := report.Ratio(mb.Estimate, ma.Estimate)
				kind, _ := figureKind(t.Figure)
				cr := CellRatio{Table: t.ID, Row: row.Label, Column: col, Figure: t.Figure, Unit: t.Unit, Kind: kind, A: ma.Value, B: mb.Value, Ratio: q.Value, Lo: q.Lo, Hi: q.Hi}
				cr.Excludes1 = !math.IsNaN(cr.Lo) && (cr.Lo > 1 || cr.Hi < 1)
				c.Cells = append(c.Cells, cr)
				step := t.StepIDs()[0]
				speedups[step] = append(speedups[step], speed(cr))
			}
		}
	}
	c.Kinds = kindMeans(c.Cells)
	for _, k := range c.Kinds {
		c.Compared += k.Cells
		c.Faster += k.Faster
		c.Slower += k.Slower
	}
	c.Machine = machineLines(a, b, speedups)
	return c
}

// speed is a cell's B/A turned so that above 1 is faster in B.
func speed(cr CellRatio) float64 {
	if _, higher := figureKind(cr.Figure); higher {
		return cr.Ratio
	}
	return 1 / cr.Ratio
}

// kindMeans are the geometric means of the cells' ratios, one per kind,
// in the order the kinds first appear.
func kindMeans(cells []CellRatio) []KindMean {
	var out []KindMean
	logs := map[string][]float64{}
	for _, cr := range cells {
		if _, ok := logs[cr.Kind]; !ok {
			_, higher := figureKind(cr.Figure)
			out = append(out, KindMean{Kind: cr.Kind, Higher: higher})
		}
		logs[cr.Kind] = append(logs[cr.Kind], math.Log(cr.Ratio))
		for i := range out {
			switch {
			case out[i].Kind != cr.Kind:
			case speed(cr) > 1:
				out[i].Faster++
			case speed(cr) < 1:
				out[i].Slower++
			}
		}
	}
	for i := range out {
		ls := logs[out[i].Kind]
		m, lo, hi := report.MeanInterval(ls)
		out[i].Cells, out[i].GeoMean, out[i].GeoLo, out[i].GeoHi = len(ls), math.Exp(m), math.Exp(lo), math.Exp(hi)
	}
	return out
}

// unfinished names the steps that failed or were interrupted in either
// run, with which and how: their figures are partial or missing, and a
// comparison of them would be of the failure.
func unfinished(a, b *Document) map[string]string {
	out := map[string]string{}
	for _, side := range []struct {
		name string
		d    *Document
	}{{"A", a}, {"B", b}} {
		for _, st := range side.d.Steps {
			var why string
			switch {
			case st.Interrupted:
				why = "interrupted in " + side.name
			case st.Error != "":
				why = "failed in " + side.name
			default:
				continue
			}
			if prev, ok := out[st.ID]; ok {
				why = prev + ", " + why
			}
			out[st.ID] = why
		}
	}
	return out
}

// machineLines are result.MachineExplains' lines for each step both
// documents ran, in step order.
func machineLines(a, b *Document, speedups map[string][]float64) []string {
	var out []string
	for _, sa := range a.Steps {
		for _, sb := range b.Steps {
			if sa.ID != sb.ID || sa.Result == nil || sb.Result == nil {
				continue
			}
			for _, l := range result.MachineExplains(sa.Result, sb.Result, speedups[sa.ID]) {
				out = append(out, "step "+sa.ID+": "+l)
			}
		}
	}
	return out
}

// WriteComparison prints a comparison for the terminal.
func WriteComparison(w io.Writer, c *Comparison) {
	fmt.Fprintf(w, "study %s: B = %s over A = %s\n", c.Study.ID, c.B.StartedAt.Format("2006-01-02 15:04"), c.A.StartedAt.Format("2006-01-02 15:04"))
	if !c.SameFile {
		fmt.Fprintf(w, "note: the two runs ran different study files (sha256 %s and %s)\n", short(c.A.SHA256), short(c.B.SHA256))
	}
	if c.A.Quick != c.B.Quick {
		fmt.Fprintf(w, "note: one run is the quick form and the other the full one\n")
	}
	g := report.Grid{Header: []string{"table", "row", "column", "A", "B", "B/A", "95% interval", ""}, Labels: 3}
	for _, cr := range c.Cells {
		iv, mark := "n<2", ""
		if !math.IsNaN(cr.Lo) {
			iv = fmt.Sprintf("%.2f–%.2f", cr.Lo, cr.Hi)
		}
		if cr.Excludes1 {
			mark = "*"
		}
		g.Rows = append(g.Rows, []string{cr.Table, cr.Row, cr.Column, num(cr.A), num(cr.B), fmt.Sprintf("%.2f", cr.Ratio), iv, mark})
	}
	report.GridText(w, g)
	for _, l := range c.LeftOut {
		fmt.Fprintf(w, "left out: %s (its cells are not compared)\n", l)
	}
	if c.Compared == 0 {
		fmt.Fprintln(w, "no cell was measured in both runs")
		return
	}
	fmt.Fprintf(w, "\n* the cell's 95%% interval excludes 1\n")
	fmt.Fprintf(w, "geometric mean of B/A per kind of figure (never pooled: a time per operation is its throughput inverted):\n")
	for _, k := range c.Kinds {
		better := "higher is better"
		if !k.Higher {
			better = "lower is better"
		}
		iv := "no interval from one cell"
		if k.Cells > 1 {
			iv = fmt.Sprintf("95%% interval %.3f–%.3f", k.GeoLo, k.GeoHi)
		}
		fmt.Fprintf(w, "  %-10s %.3f over %d %s (%s; %s), %d faster and %d slower in B\n", k.Kind, k.GeoMean, k.Cells, plural(k.Cells, "cell", "cells"), better, iv, k.Faster, k.Slower)
	}
	marked := 0
	for _, cr := range c.Cells {
		if cr.Excludes1 {
			marked++
		}
	}
	fmt.Fprintf(w, "%d of %d cells faster in B and %d slower (a higher rate, a lower latency or time is faster); %d cells' intervals exclude 1\n", c.Faster, c.Compared, c.Slower, marked)
	if n := float64(c.Compared); float64(c.Faster) >= 0.9*n || float64(c.Slower) >= 0.9*n {
		fmt.Fprintf(w, "almost every cell moved the same way: a change of the machine (its load, its CPU or disk), more likely than of the engines or clients\n")
	}
	for _, l := range c.Machine {
		fmt.Fprintf(w, "machine: %s\n", l)
	}
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
