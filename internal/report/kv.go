package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/dbmeter/dbmeter/internal/result"
)

// kvOpOrder is the row order of the kv tables: the seed's operations, then
// batchset. Operations not listed (from a newer dbmeter) follow.
var kvOpOrder = []string{"set", "update", "get", "del", "setmixed", "getmixed", "batchset"}

// kvGrids lays out the kv family as the seed did: per fsync mode, a
// throughput table and a latency table, operations as rows and engines as
// columns. With repetitions, each cell shows them pooled (pooledRun), as
// every other output does. A cell the engine cannot run says so; a cell
// whose run had errors is marked with "!" (the notes give the counts).
// Each fsync-on table says what one fsync costs on the disk the runs wrote
// to, and warns of any write that was faster than that.
func kvGrids(l labeler, es []entry, disk result.Disk) []Grid {
	// The fsync mode (and how an engine switches it) is said by the table,
	// so the engines' names leave it out.
	l.split = slices.DeleteFunc(slices.Clone(l.split), func(k string) bool { return k == result.SettingFsync || k == result.SettingFsyncSwitch })
	var out []Grid
	fsync := func(e entry) string { v, _ := e.run.Setting(result.SettingFsync); return v }
	for _, mode := range ordered(es, fsync) {
		var mine []entry
		for _, e := range es {
			if fsync(e) == mode {
				mine = append(mine, e)
			}
		}
		m := newKVMatrix(l, mine)
		out = append(out, m.throughput(mode, disk), m.latency(mode))
		if g, ok := m.costs(mode); ok {
			out = append(out, g)
		}
	}
	return out
}

// kvMatrix is one fsync mode's cells: each operation × engine's
// repetitions, and them pooled.
type kvMatrix struct {
	ops, engines []string
	reps         map[[2]string][]result.Run
	pooled       map[[2]string]result.Run
	runs         []result.Run
	repeat       int
	mk           *marks // the marks the matrix's cells gave
}

func newKVMatrix(l labeler, es []entry) kvMatrix {
	m := kvMatrix{reps: map[[2]string][]result.Run{}, pooled: map[[2]string]result.Run{}, mk: &marks{}}
	m.engines = ordered(es, l.target)
	m.ops = ordered(es, func(e entry) string { return e.run.Workload })
	sort.SliceStable(m.ops, func(i, j int) bool { return kvOpRank(m.ops[i]) < kvOpRank(m.ops[j]) })
	for _, e := range es {
		k := [2]string{e.run.Workload, l.target(e)}
		m.reps[k] = append(m.reps[k], *e.run)
		m.runs = append(m.runs, *e.run)
		m.repeat = max(m.repeat, e.run.Repeat)
	}
	for k, rs := range m.reps {
		m.pooled[k] = pooledRun(rs)
	}
	return m
}

// row is one row of the matrix: label, then f of each engine's cell.
func (m kvMatrix) row(label, op string, f func(r result.Run, reps []result.Run) string) []string {
	out := []string{label}
	for _, e := range m.engines {
		k := [2]string{op, e}
		r, ok := m.pooled[k]
		switch {
		case !ok:
			out = append(out, "-")
		case kvNotSupported(r):
			out = append(out, "not supported")
		case empty(m.reps[k]):
			m.mk.empty = true
			out = append(out, noOps)
		case r.Errors > 0:
			out = append(out, f(r, m.reps[k])+"!")
		default:
			out = append(out, f(r, m.reps[k]))
		}
	}
	return out
}

func kvModeName(mode string) string {
	if mode == "true" {
		return "fsync on"
	}
	return "fsync off"
}

// throughput is the mode's throughput grid, headed by what the cells ran
// and, with fsync on, the disk and any engine that declared its writes
// unsynced, and followed by any write faster than the disk allows.
func (m kvMatrix) throughput(mode string, disk result.Disk) Grid {
	hr := kvHeaderRun(m.runs)
	preloaded, _ := hr.Setting(result.SettingPreloadedKeys)
	preload := kvCount(preloaded) + " keys preloaded in every cell's store"
	if preloaded == "0" {
		preload = "no keys preloaded" // from a dbmeter before 2026-11, where only set and batchset ran
	}
	workers, _ := hr.Setting(result.SettingWorkers)
	line := fmt.Sprintf("%s workers  ·  %s  ·  %s  ·  %s", workers, preload, kvSizes(&hr, m.ops), kvWindow(hr.Window(), m.ops, m.repeat))
	if mode == "true" {
		line = "every write durable before it is acknowledged  ·  " + line
	}
	g := Grid{
		Title:  "kv " + kvModeName(mode) + ": throughput",
		Lines:  []string{line},
		Header: append([]string{"ops/s"}, m.engines...),
		Labels: 1,
	}
	if mode == "true" || disk.Storage != nil {
		g.Lines = append(g.Lines, kvDiskLine(disk))
	}
	if line := storageLine(disk); line != "" {
		g.Lines = append(g.Lines, line)
	}
	for _, op := range m.ops {
		label := op
		if op == "batchset" {
			label = "batchset (batches/s)"
		}
		g.Rows = append(g.Rows, m.row(label, op, func(r result.Run, reps []result.Run) string {
			return throughputCell(r.OpsPerS, reps, Count, m.mk)
		}))
		if op == "batchset" {
			g.Rows = append(g.Rows, m.row("batchset (keys/s)", op, func(r result.Run, _ []result.Run) string { return Count(r.RowsPerS) }))
		}
	}
	g.Note = spreadNote(m.repeat, m.mk.spread)
	if m.hasErrors() {
		g.Note += "; !: the cell had errors (the notes say how many and which)"
	}
	g.Note = joinNotes(g.Note, m.mk.note())
	*m.mk = marks{} // the latency table explains its own
	if mode == "true" {
		unsynced, implausible := m.durability(disk.Fsync)
		g.Lines = append(g.Lines, unsynced...)
		g.Warnings = append(g.Warnings, implausible...)
	}
	return g
}

func (m kvMatrix) hasErrors() bool {
	for _, r := range m.pooled {
		if r.Errors > 0 && !kvNotSupported(r) {
			return true
		}
	}
	return false
}

// A kvStat is one row of the latency table for each operation. Adding one
// here adds its row to every format.
type kvStat struct {
	name string
	f    func(r result.Run, m *marks) string
	only string // the one operation it applies to; "" for all
}

// kvStats are the latency table's rows for each operation: the whole
// distribution's tail, not only the p99, so a mean above the p99 (a few
// operations far slower than the rest) shows where it comes from.
var kvStats = []kvStat{
	{name: "p50", f: func(r result.Run, m *marks) string { return percentileCell(0.5, r.Latency.P50, r.Ops, m) }},
	{name: "p99", f: func(r result.Run, m *marks) string { return percentileCell(0.99, r.Latency.P99, r.Ops, m) }},
	{name: "p99.9", f: func(r result.Run, m *marks) string { return percentileCell(0.999, r.Latency.P999, r.Ops, m) }},
	{name: "max", f: func(r result.Run, _ *marks) string { return Nanos(r.Latency.Max) }},
	{name: "mean", f: func(r result.Run, _ *marks) string { return nanos(r.Latency.Mean) }},
	{name: "mean per key", only: "batchset", f: func(r result.Run, _ *marks) string { return nanos(r.Extra["ns_per_key"]) }},
}

// latency is the mode's latency grid: for each operation, kvStats.
func (m kvMatrix) latency(mode string) Grid {
	g := Grid{
		Title:  "kv " + kvModeName(mode) + ": latency per operation",
		Header: append([]string{"latency"}, m.engines...),
		Labels: 1,
		Note:   "latency from each operation's intended start; max is the slowest single operation, so a mean above the p99 is a few operations far slower than the rest: see p99.9 and max",
	}
	for _, op := range m.ops {
		for _, st := range kvStats {
			if st.only == "" || st.only == op {
				g.Rows = append(g.Rows, m.row(op+" "+st.name, op, func(r result.Run, _ []result.Run) string { return st.f(r, m.mk) }))
			}
		}
	}
	g.Note = joinNotes(g.Note, m.mk.note())
	return g
}

// kvWindow says how long each cell ran, and how often.
func kvWindow(w result.Window, ops []string, repeat int) string {
	s := w.Duration.String()
	if w.Count > 0 {
		s = strconv.FormatInt(w.Count, 10) + " ops"
	}
	if repeat > 1 {
		s = fmt.Sprintf("%d repetitions of %s", repeat, s)
	} else {
		s += " per cell"
	}
	if w.Warmup > 0 {
		s += " after " + w.Warmup.String() + " of warm-up"
		if repeat > 1 {
			s += " each"
		}
	}
	if slices.Contains(ops, "ycsb-load") {
		s += " (ycsb-load: each record once)"
	}
	if repeat > 1 {
		s += ", pooled"
	}
	return s
}

// kvCount formats a whole number kept as a string param.
func kvCount(s string) string {
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return Count(n)
}

func kvOpRank(op string) int {
	if i := slices.Index(kvOpOrder, op); i >= 0 {
		return i
	}
	return len(kvOpOrder)
}
