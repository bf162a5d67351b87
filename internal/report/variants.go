package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A vcolumn is a column of a variant table: its header and its cell for one variant
// (its repetitions pooled); cell records the marks it gives in m.
type vcolumn struct {
	head string
	cell func(v variant, m *marks) string
}

// variantGrid lays out one row per variant (a configuration, its
// repetitions pooled): the target, the params that tell the source's
// variants apart (a swept knob, each a vcolumn of its own, unless lead
// already shows it), the workload, the lead columns, then the figures.
// A variant that completed no operation shows noOps in its first figure
// vcolumn and dashes after it. The note explains the ± and every mark the
// table gave.
func variantGrid(title string, l labeler, es []entry, lead []vcolumn, leadKeys []string, figs []vcolumn) Grid {
	var split []string
	for _, k := range l.split {
		if !slices.Contains(leadKeys, k) && variesIn(es, k) {
			split = append(split, k)
		}
	}
	g := Grid{Title: title, Labels: 2 + len(split) + len(lead)}
	g.Header = append([]string{"target"}, labels(split)...)
	g.Header = append(g.Header, "workload")
	for _, c := range append(slices.Clone(lead), figs...) {
		g.Header = append(g.Header, c.head)
	}
	var mk marks
	repeat := 0
	for _, v := range variantsOf(l, es) {
		repeat = max(repeat, len(v.reps))
		target := v.first.run.Target
		if len(l.srcs) > 1 {
			target += " [" + l.srcs[v.first.src].Name + "]"
		}
		row := []string{target}
		for _, k := range split {
			row = append(row, orDash(v.first.run.Params[k]))
		}
		row = append(row, v.first.run.Workload)
		for _, c := range lead {
			row = append(row, c.cell(v, &mk))
		}
		if empty(v.reps) {
			mk.empty = true
			row = append(row, noOps)
			for range figs[1:] {
				row = append(row, "-")
			}
		} else {
			for _, c := range figs {
				row = append(row, c.cell(v, &mk))
			}
		}
		g.Rows = append(g.Rows, row)
	}
	pooled := ""
	if repeat > 1 {
		pooled = fmt.Sprintf("each row: its %d repetitions pooled (all operations over all measured time; latencies from their histograms added)", repeat)
	}
	g.Note = joinNotes(pooled, spreadNote(repeat, mk.spread), mk.note())
	return g
}

// labels are the headings of the settings names (result.Label).
func labels(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = result.Label(n)
	}
	return out
}

// variesIn says whether param key takes more than one value among es.
func variesIn(es []entry, key string) bool {
	for _, e := range es[1:] {
		if e.run.Params[key] != es[0].run.Params[key] {
			return true
		}
	}
	return false
}

// Columns every family's variant table draws from.

func paramCol(head, key string) vcolumn {
	return vcolumn{head, func(v variant, _ *marks) string { s, _ := v.first.run.Setting(key); return orDash(s) }}
}

func throughputCol(head string, fig func(r *result.Run) float64, format func(float64) string) vcolumn {
	return vcolumn{head, func(v variant, m *marks) string { return throughputCell(fig(&v.pooled), v.reps, format, m) }}
}

func percentileCol(head string, q float64, fig func(l result.Latency) int64) vcolumn {
	return vcolumn{head, func(v variant, m *marks) string {
		return percentileCell(q, fig(v.pooled.Latency), v.pooled.Ops, m)
	}}
}

// latencyCols are p50 … max and the mean of the pooled latency.
func latencyCols() []vcolumn {
	return []vcolumn{
		percentileCol("p50", 0.5, func(l result.Latency) int64 { return l.P50 }),
		percentileCol("p90", 0.9, func(l result.Latency) int64 { return l.P90 }),
		percentileCol("p99", 0.99, func(l result.Latency) int64 { return l.P99 }),
		{"lag p99", func(v variant, _ *marks) string { return lagCell(&v.pooled) }},
		percentileCol("p99.9", 0.999, func(l result.Latency) int64 { return l.P999 }),
		{"max", func(v variant, _ *marks) string { return Nanos(v.pooled.Latency.Max) }},
		{"mean", func(v variant, _ *marks) string { return nanos(v.pooled.Latency.Mean) }},
	}
}

func errorsCol(head string) vcolumn {
	return vcolumn{head, func(v variant, _ *marks) string { return strconv.FormatInt(v.pooled.Errors, 10) }}
}

func repsCol() vcolumn {
	return vcolumn{"reps", func(v variant, _ *marks) string { return strconv.Itoa(len(v.reps)) }}
}

// cpuPerOp is dbmeter's CPU per operation over all the repetitions.
func cpuPerOp(v variant) float64 {
	return secondsPerOp(v, func(c result.Client) float64 { return c.CPUS })
}

// workersCPUPerOp is an external client's workers' CPU per operation over
// all the repetitions.
func workersCPUPerOp(v variant) float64 {
	return secondsPerOp(v, func(c result.Client) float64 { return c.WorkersCPUS })
}

// secondsPerOp is the seconds of a client's cost over the variant's
// operations (completed or failed, as load counts them), in ns.
func secondsPerOp(v variant, secs func(c result.Client) float64) float64 {
	var sum float64
	var ops int64
	for _, r := range v.reps {
		sum += secs(r.Client)
		ops += r.Ops + r.Errors
	}
	if ops == 0 {
		return 0
	}
	return sum * 1e9 / float64(ops)
}

// runsGrid is a family's variant grid of runs, for the terminal, made the
// way the Markdown and HTML reports make it.
func runsGrid(runs []result.Run, grid func(l labeler, es []entry) Grid) Grid {
	srcs := []Source{{Doc: &result.Document{Runs: runs}}}
	es := entriesOf(srcs)
	return grid(newLabeler(srcs, es), es)
}

// joinNotes joins a table's note parts that are not empty.
func joinNotes(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}
