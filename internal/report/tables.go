package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A Grid is a titled table of formatted cells that the Markdown and HTML
// reports render alike. The first column is a name; the others are figures.
type Grid struct {
	Title  string
	Header []string
	Rows   [][]string
	Note   string
	Labels int // the leading columns that hold names, not figures (at least 1)
}

// Tables lays out one source's runs as the seeds did: engine × operation
// matrices for kv, one row per client for ch insert, one row per run for
// the rest.
func Tables(srcs []Source, src int) []Grid {
	es := entriesOf(srcs)
	var mine []entry
	for _, e := range es {
		if e.src == src {
			mine = append(mine, e)
		}
	}
	l := newLabeler(srcs[src:src+1], rebase(mine))
	var out []Grid
	for _, family := range ordered(mine, func(e entry) string { return e.run.Family }) {
		var runs []entry
		for _, e := range mine {
			if e.run.Family == family {
				runs = append(runs, rebase([]entry{e})[0])
			}
		}
		switch family {
		case "kv":
			out = append(out, kvMatrices(l, runs)...)
		case "ch":
			var ins, rest []entry
			for _, e := range runs {
				if e.run.Workload == "insert" {
					ins = append(ins, e)
				} else {
					rest = append(rest, e)
				}
			}
			if len(ins) > 0 {
				out = append(out, insertTable(l, ins))
			}
			if len(rest) > 0 {
				out = append(out, runTable("ch query: latency at the requested rate", l, rest))
			}
		case "pg":
			out = append(out, pgTable(l, runs))
		default:
			out = append(out, runTable(family, l, runs))
		}
	}
	if g, ok := serverStatsGrid(l, rebase(mine)); ok {
		out = append(out, g)
	}
	if g, ok := capacityGrid(srcs[src].Doc); ok {
		out = append(out, g)
	}
	return out
}

// rebase points entries at source 0, for a labeler over one source.
func rebase(es []entry) []entry {
	out := make([]entry, len(es))
	for i, e := range es {
		out[i] = entry{src: 0, run: e.run}
	}
	return out
}

// kvMatrices gives the seed's tables: operations down, engines across;
// throughput, and the latencies the terminal shows: p50, mean (the seed's
// "time") and p99. Repetitions are
// pooled (pooledRun).
func kvMatrices(l labeler, es []entry) []Grid {
	cols := ordered(es, l.target)
	rows := ordered(es, func(e entry) string { return e.run.Workload })
	flagged := false
	// cell formats fig of a cell's repetitions pooled; spread
	// adds the throughput's spread and flag.
	cell := func(fig func(r *result.Run) float64, format func(float64) string, spread bool) [][]string {
		var out [][]string
		for _, w := range rows {
			line := []string{w}
			for _, c := range cols {
				var reps []result.Run
				for _, e := range es {
					if e.run.Workload == w && l.target(e) == c {
						reps = append(reps, *e.run)
					}
				}
				if len(reps) == 0 {
					line = append(line, "-")
					continue
				}
				m := pooledRun(reps)
				if spread {
					s, f := kvThroughputCell(fig(&m), reps)
					flagged = flagged || f
					line = append(line, s)
				} else {
					line = append(line, format(fig(&m)))
				}
			}
			out = append(out, line)
		}
		return out
	}
	header := append([]string{"operation"}, cols...)
	note := ""
	if n := maxRepeat(es); n > 1 {
		note = fmt.Sprintf("%d repetitions pooled", n)
	}
	ns := func(v float64) string { return nanos(v) }
	ops := cell(func(r *result.Run) float64 { return r.OpsPerS }, Count, true)
	opsNote := kvSpreadNote(maxRepeat(es), flagged)
	if note != "" {
		opsNote = note + "; " + opsNote
	}
	return []Grid{
		{Title: "kv throughput (ops/s; batchset: batches/s)", Header: header, Rows: ops, Note: opsNote, Labels: 1},
		{Title: "kv latency, p50", Header: header, Rows: cell(func(r *result.Run) float64 { return float64(r.Latency.P50) }, ns, false), Note: note, Labels: 1},
		{Title: "kv latency, mean", Header: header, Rows: cell(func(r *result.Run) float64 { return r.Latency.Mean }, ns, false), Note: note, Labels: 1},
		{Title: "kv latency, p99", Header: header, Rows: cell(func(r *result.Run) float64 { return float64(r.Latency.P99) }, ns, false), Note: note, Labels: 1},
	}
}

func maxRepeat(es []entry) int {
	n := 0
	for _, e := range es {
		n = max(n, e.run.Repeat)
	}
	return n
}

// insertTable is the seed's clients × rows/s table, with the batch
// latency split into building it in the client and sending it.
func insertTable(l labeler, es []entry) Grid {
	t := Grid{
		Labels: 1,
		Title:  "ch insert: rows per second by client",
		Header: []string{"client", "workers", "rep", "rows/s", "MB/s", "batches/s", "batch p50", "batch p99", "build p50", "send p50", "CPU/row", "allocs/row", "errors"},
	}
	for _, e := range es {
		r := e.run
		perRow := func(v float64) string {
			if r.Rows == 0 {
				return "-"
			}
			return strconv.FormatFloat(v*float64(r.Ops)/float64(r.Rows), 'f', 1, 64)
		}
		cpuRow := "-"
		if r.Rows > 0 {
			// dbmeter's CPU and its external workers': the client's.
			cpuRow = nanos((r.Client.CPUNsPerOp + r.Client.WorkersCPUNsPerOp) * float64(r.Ops+r.Errors) / float64(r.Rows))
		}
		t.Rows = append(t.Rows, []string{
			l.target(e), strconv.Itoa(r.Workers), strconv.Itoa(r.Repeat), Count(r.RowsPerS),
			fmt.Sprintf("%.1f", r.BytesPerS/1e6), fmt.Sprintf("%.2f", r.OpsPerS),
			Nanos(r.Latency.P50), Nanos(r.Latency.P99), insertPhase(r, "build"), insertPhase(r, "send"),
			cpuRow, perRow(r.Client.AllocsPerOp), strconv.FormatInt(r.Errors, 10),
		})
	}
	return t
}

func phase(r *result.Run, name string) string {
	p, ok := r.Phases[name]
	if !ok {
		return "-"
	}
	return Nanos(p.P50)
}

// runTable is one row per run with the figures every family has.
func runTable(title string, l labeler, es []entry) Grid {
	t := Grid{
		Labels: 3,
		Title:  title,
		Header: []string{"target", "workload", "mode", "workers", "rate/s", "rep", "ops/s", "p50", "p90", "p99", "lag p99", "p99.9", "max", "mean", "errors", "dropped"},
	}
	steps := slices.ContainsFunc(es, func(e entry) bool { return e.run.Verdict != nil })
	if steps {
		// A capacity search: each step's verdict, so the drops expected at
		// a failing step read as what failed it.
		t.Header = append(t.Header, "step", "verdict")
	}
	for _, e := range es {
		r := e.run
		rate := "-"
		if r.Mode == "open" {
			rate = Count(r.Rate)
		}
		lat := r.Latency
		row := []string{
			l.target(e), r.Workload, r.Mode, strconv.Itoa(r.Workers), rate, strconv.Itoa(r.Repeat), Count(r.OpsPerS),
			Nanos(lat.P50), Nanos(lat.P90), Nanos(lat.P99), lagCell(r), Nanos(lat.P999), Nanos(lat.Max), nanos(lat.Mean),
			strconv.FormatInt(r.Errors, 10), strconv.FormatInt(r.Dropped, 10),
		}
		if steps {
			row = append(row, stepCells(r)...)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// stepCells are a capacity search step's number and verdict, blank for a
// run that was no step.
func stepCells(r *result.Run) []string {
	if r.Verdict == nil {
		return []string{"", ""}
	}
	v := "pass"
	if !r.Verdict.Pass {
		v = "FAIL: " + r.Verdict.Reason
	}
	if r.Verdict.Confirm {
		v += " (confirmation)"
	}
	return []string{strconv.Itoa(r.Step), v}
}

// pgTable is runTable with what a pgbench user reads first beside the
// figures: the query mode (-M) and the server's version.
func pgTable(l labeler, es []entry) Grid {
	t := runTable("pg: transactions per second and latency", l, es)
	t.Header = slices.Insert(t.Header, 2, "query mode", "server")
	t.Labels += 2
	for i, e := range es {
		t.Rows[i] = slices.Insert(t.Rows[i], 2, e.run.Params["query_mode"], e.run.Server)
	}
	return t
}

// Notes lists what a reader must not miss in one source's runs: errors by
// kind, interrupted runs, warnings.
func Notes(doc *result.Document) []string {
	var lines []string
	// A warning every repetition of a cell gave (an engine that cannot run
	// it) is said once, naming the repetitions, where its first one was.
	type said struct{ line, reps int }
	warned := map[string]*said{}
	var reps [][]int
	for _, r := range doc.Runs {
		name := r.Target + "/" + r.Workload
		if r.Repeat > 1 {
			name += fmt.Sprintf(" #%d", r.Repeat)
		}
		if r.Errors > 0 {
			lines = append(lines, fmt.Sprintf("%s: %d errors (%s)", name, r.Errors, kinds(r.ErrorKinds)))
			for _, k := range slices.Sorted(maps.Keys(r.ErrorSamples)) {
				lines = append(lines, fmt.Sprintf("%s: first %s error: %s", name, k, r.ErrorSamples[k]))
			}
		}
		if r.Interrupted {
			lines = append(lines, name+": interrupted, partial result")
		}
		if l := lagNote(&r); l != "" {
			lines = append(lines, name+": "+l)
		}
		if r.Verdict != nil && !r.Verdict.Pass {
			// The step table says why the step failed; its drops and
			// shortfall are what failing means, not something to miss.
			continue
		}
		for _, w := range r.Warnings {
			key := r.Target + "/" + r.Workload + "\x00" + w
			if s, ok := warned[key]; ok {
				reps[s.reps] = append(reps[s.reps], r.Repeat)
				lines[s.line] = fmt.Sprintf("%s/%s (repetitions %s): %s", r.Target, r.Workload, joinInts(reps[s.reps]), w)
				continue
			}
			warned[key] = &said{line: len(lines), reps: len(reps)}
			reps = append(reps, []int{r.Repeat})
			lines = append(lines, name+": "+w)
		}
	}
	return lines
}

func joinInts(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}
