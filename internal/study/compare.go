package study

import (
	"fmt"
	"io"
	"math"
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
	// GeoMean is the geometric mean of the cells' ratios, with the 95 %
	// interval of the mean of their logarithms.
	GeoMean, GeoLo, GeoHi float64
	// Faster counts the cells where B was faster (a higher rate or a lower
	// latency), of Compared; MedianChange is the median of those cells'
	// speed-ups (B's speed over A's, minus 1).
	Faster, Compared int
	MedianChange     float64
	// Machine says, per step, how much of the difference the machines
	// explain (result.MachineExplains over the step's two documents).
	Machine []string
}

// CellRatio is one measured cell in both runs.
type CellRatio struct {
	Table, Row, Column string
	Figure, Unit       string
	A, B               float64
	Ratio              float64
	// Lo and Hi bound the ratio's 95 % interval (report.Ratio: the two
	// cells' intervals propagated); NaN when a side has none.
	Lo, Hi float64
	// Excludes1 marks a cell whose interval excludes 1: a difference the
	// repetitions' spread does not explain.
	Excludes1 bool
}

// Compare puts two result documents of study s side by side.
func Compare(s *Study, a, b *Document) *Comparison {
	c := &Comparison{Study: s, A: a, B: b, SameFile: a.SHA256 == b.SHA256}
	va, vb := Evaluate(s, a), Evaluate(s, b)
	seen := map[string]bool{}
	var logs []float64
	var changes []float64
	speedups := map[string][]float64{}
	for ti, ta := range va.Tables {
		t := ta.Table
		for i, row := range t.rows {
			for j, col := range t.Header {
				key := strings.Join([]string{t.Step, fmt.Sprint(t.Multiply), t.Figure, t.Unit, fmt.Sprint(t.Where), row.Label, col}, "\x00")
				ma, mb := ta.Cells[i][j].Measured, vb.Tables[ti].Cells[i][j].Measured
				if seen[key] || ma == nil || mb == nil || ma.Value <= 0 || mb.Value <= 0 {
					continue
				}
				seen[key] = true
				q := report.Ratio(mb.Estimate, ma.Estimate)
				cr := CellRatio{Table: t.ID, Row: row.Label, Column: col, Figure: t.Figure, Unit: t.Unit, A: ma.Value, B: mb.Value, Ratio: q.Value, Lo: q.Lo, Hi: q.Hi}
				cr.Excludes1 = !math.IsNaN(cr.Lo) && (cr.Lo > 1 || cr.Hi < 1)
				c.Cells = append(c.Cells, cr)
				logs = append(logs, math.Log(cr.Ratio))
				speed := cr.Ratio
				if isLatency(t.Figure) {
					speed = 1 / cr.Ratio
				}
				if speed > 1 {
					c.Faster++
				}
				changes = append(changes, speed-1)
				step := t.StepIDs()[0]
				speedups[step] = append(speedups[step], speed)
			}
		}
	}
	c.Compared = len(logs)
	c.Machine = machineLines(a, b, speedups)
	if len(logs) > 0 {
		m, lo, hi := report.MeanInterval(logs)
		c.GeoMean, c.GeoLo, c.GeoHi = math.Exp(m), math.Exp(lo), math.Exp(hi)
		c.MedianChange = report.Median(changes)
	}
	return c
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

func isLatency(figure string) bool {
	f, ok := report.LookupFigure(figure)
	return ok && f.Base == "ns"
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
	if c.Compared == 0 {
		fmt.Fprintln(w, "no cell was measured in both runs")
		return
	}
	fmt.Fprintf(w, "\n* the cell's 95%% interval excludes 1\n")
	if c.Compared < 2 {
		fmt.Fprintf(w, "geometric mean of B/A over 1 cell: %.3f (no interval from one cell)\n", c.GeoMean)
	} else {
		fmt.Fprintf(w, "geometric mean of B/A over %d cells: %.3f (95%% interval of the cells' ratios %.3f–%.3f)\n", c.Compared, c.GeoMean, c.GeoLo, c.GeoHi)
	}
	marked := 0
	for _, cr := range c.Cells {
		if cr.Excludes1 {
			marked++
		}
	}
	fmt.Fprintf(w, "%d of %d cells faster in B (a higher rate or a lower latency), median change %+.0f%%; %d cells' intervals exclude 1\n",
		c.Faster, c.Compared, 100*c.MedianChange, marked)
	if share := float64(c.Faster) / float64(c.Compared); share >= 0.9 || share <= 0.1 {
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
