package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Tables lays out one source's runs as the seeds did: engine × operation
// matrices for kv, one row per client for ch insert, one row per run for
// the rest.
func Tables(srcs []Source, src int) []Grid {
	l, mine := sourceEntries(srcs, src)
	var out []Grid
	for _, family := range ordered(mine, func(e entry) string { return e.run.Family }) {
		out = append(out, familyGrids(l, family, mine, srcs[src].Doc.Env.Disk)...)
	}
	if g, ok := serverStatsGrid(l, mine); ok {
		out = append(out, g)
	}
	if g, ok := capacityGrid(srcs[src].Doc); ok {
		out = append(out, g)
	}
	return out
}

// sourceEntries are one source's runs, pointed at source 0 of a labeler
// over that source alone.
func sourceEntries(srcs []Source, src int) (labeler, []entry) {
	var mine []entry
	for _, e := range entriesOf(srcs) {
		if e.src == src {
			mine = append(mine, e)
		}
	}
	mine = rebase(mine)
	return newLabeler(srcs[src:src+1], mine), mine
}

// familyGrids are the tables of one family's runs among es.
func familyGrids(l labeler, family string, es []entry, disk result.Disk) []Grid {
	var runs []entry
	for _, e := range es {
		if e.run.Family == family {
			runs = append(runs, e)
		}
	}
	switch family {
	case "kv":
		return kvGrids(l, runs, disk)
	case "ch":
		ins, rest := splitEntries(runs, func(e entry) bool { return e.run.Workload == "insert" })
		var out []Grid
		if len(ins) > 0 {
			out = append(out, insertTable(l, ins))
		}
		if len(rest) > 0 {
			out = append(out, chQueryTable(l, rest))
		}
		return out
	case "pg":
		if slices.ContainsFunc(runs, func(e entry) bool { return e.run.Verdict != nil }) {
			return []Grid{pgTable(l, runs)} // a capacity search's steps
		}
		return []Grid{pgGrid(l, runs)}
	default:
		return []Grid{runTable(family, l, runs)}
	}
}

// rebase points entries at source 0, for a labeler over one source.
func rebase(es []entry) []entry {
	out := make([]entry, len(es))
	for i, e := range es {
		out[i] = entry{src: 0, run: e.run}
	}
	return out
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
		// A capacity search: each step's number and verdict beside its
		// name, where a reader sees why it failed without scrolling (the
		// drops expected at a failing step read as what failed it).
		t.Header = slices.Insert(t.Header, 2, "step", "verdict")
		t.Labels += 2
		// Each step's rate is its rate/s column, not part of its name.
		l.split = slices.DeleteFunc(slices.Clone(l.split), func(k string) bool { return k == result.SettingRate })
	}
	var mk marks
	for _, e := range es {
		r := e.run
		rate := "-"
		if r.Mode == "open" {
			rate = Count(r.Rate)
		}
		row := append([]string{l.target(e), r.Workload, r.Mode, strconv.Itoa(r.Workers), rate, strconv.Itoa(r.Repeat)}, runFigures(r, &mk)...)
		row = append(row, strconv.FormatInt(r.Errors, 10), strconv.FormatInt(r.Dropped, 10))
		if steps {
			row = slices.Insert(row, 2, stepCells(r)...)
		}
		t.Rows = append(t.Rows, row)
	}
	t.Note = mk.note()
	return t
}

// runFigures are one run's ops/s, p50, p90, p99, lag p99, p99.9, max and mean, the
// percentiles marked when too few operations make them, or noOps and
// dashes when it completed none.
func runFigures(r *result.Run, m *marks) []string {
	if empty([]result.Run{*r}) {
		m.empty = true
		return []string{noOps, "-", "-", "-", "-", "-", "-", "-"}
	}
	l := r.Latency
	return []string{Count(r.OpsPerS),
		percentileCell(0.5, l.P50, r.Ops, m), percentileCell(0.9, l.P90, r.Ops, m), percentileCell(0.99, l.P99, r.Ops, m), lagCell(r),
		percentileCell(0.999, l.P999, r.Ops, m), Nanos(l.Max), nanos(l.Mean)}
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

// Notes lists what a reader must not miss in one source's runs: errors by
// kind, interrupted runs, warnings.
func Notes(doc *result.Document) []string {
	lines := EmptyVariants(doc)
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
