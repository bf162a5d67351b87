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
	// Lo and Hi bound the ratio's 95 % interval; NaN when a side has fewer
	// than two repetitions.
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
				cr := CellRatio{Table: t.ID, Row: row.Label, Column: col, Figure: t.Figure, Unit: t.Unit, A: ma.Value, B: mb.Value, Ratio: mb.Value / ma.Value}
				cr.Lo, cr.Hi = ratioInterval(ma.Reps, mb.Reps, cr.Ratio)
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
		m, se := meanSE(logs)
		t := tQuantile(len(logs) - 1)
		c.GeoMean, c.GeoLo, c.GeoHi = math.Exp(m), math.Exp(m-t*se), math.Exp(m+t*se)
		c.MedianChange = median(changes)
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
	f, ok := figures[figure]
	return ok && f.base == "ns"
}

// ratioInterval is the 95 % interval of B over A from their repetitions'
// logarithms (Welch's t), centred on the pooled ratio.
func ratioInterval(a, b []float64, ratio float64) (float64, float64) {
	if len(a) < 2 || len(b) < 2 {
		return math.NaN(), math.NaN()
	}
	la, lb := logsOf(a), logsOf(b)
	_, sa := meanSE(la)
	_, sb := meanSE(lb)
	se := math.Sqrt(sa*sa + sb*sb)
	na, nb := float64(len(a)), float64(len(b))
	// Welch–Satterthwaite degrees of freedom.
	df := math.Pow(sa*sa+sb*sb, 2) / (math.Pow(sa, 4)/(na-1) + math.Pow(sb, 4)/(nb-1))
	if math.IsNaN(df) || df < 1 {
		df = 1
	}
	t := tQuantile(int(df))
	return ratio * math.Exp(-t*se), ratio * math.Exp(t*se)
}

func logsOf(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if x > 0 {
			out = append(out, math.Log(x))
		}
	}
	return out
}

// meanSE is the mean and its standard error.
func meanSE(xs []float64) (float64, float64) {
	n := float64(len(xs))
	var sum float64
	for _, x := range xs {
		sum += x
	}
	m := sum / n
	if len(xs) < 2 {
		return m, math.NaN()
	}
	var sq float64
	for _, x := range xs {
		sq += (x - m) * (x - m)
	}
	return m, math.Sqrt(sq / (n - 1) / n)
}

// tQuantile is Student's t at 97.5 % for df degrees of freedom.
func tQuantile(df int) float64 {
	table := []float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	switch {
	case df < 1:
		return math.NaN()
	case df < len(table):
		return table[df]
	case df < 60:
		return 2.00
	}
	return 1.96
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
