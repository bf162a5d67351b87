package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dbmeter/dbmeter/internal/result"
)

// kvOpOrder is the row order of the kv tables: the seed's operations, then
// batchset. Operations not listed (from a newer dbmeter) follow.
var kvOpOrder = []string{"set", "update", "get", "del", "setmixed", "getmixed", "batchset"}

// kvTables renders the kv family as the seed did: per fsync mode, a
// throughput table and a latency table, operations as rows and engines as
// columns. With repetitions, each cell shows them pooled (pooledRun), as
// every other output does. A cell whose run had errors is marked with "!" (the notes
// below the tables give the counts). Each fsync-on table pair says what
// one fsync costs on disk, the disk the runs wrote to, and warns of any
// write that was faster than that.
func kvTables(disk result.Disk) Table {
	return func(w io.Writer, runs []result.Run) error {
		modes := kvGroup(runs, func(r result.Run) string { return r.Params["fsync"] })
		for i, mode := range modes.keys {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := kvMode(w, mode, modes.runs[mode], disk); err != nil {
				return err
			}
		}
		return nil
	}
}

// kvMode prints the table pair of one fsync mode.
func kvMode(w io.Writer, mode string, runs []result.Run, disk result.Disk) error {
	engines := kvGroup(runs, func(r result.Run) string { return r.Target })
	ops := kvGroup(runs, func(r result.Run) string { return r.Workload })
	rows := slices.Clone(ops.keys)
	sort.SliceStable(rows, func(i, j int) bool { return kvOpRank(rows[i]) < kvOpRank(rows[j]) })
	cells := map[[2]string]result.Run{}
	reps := map[[2]string][]result.Run{}
	repeat := 0
	for _, e := range engines.keys {
		for _, op := range rows {
			for _, r := range engines.runs[e] {
				if r.Workload == op {
					reps[[2]string{op, e}] = append(reps[[2]string{op, e}], r)
					repeat = max(repeat, r.Repeat)
				}
			}
			if rs := reps[[2]string{op, e}]; len(rs) > 0 {
				cells[[2]string{op, e}] = pooledRun(rs)
			}
		}
	}
	fsync := "fsync off"
	if mode == "true" {
		fsync = "fsync on (every write durable before it is acknowledged)"
	}
	p := kvHeaderRun(runs).Params
	preload := kvCount(p["preloaded_keys"]) + " keys preloaded in every cell's store"
	if p["preloaded_keys"] == "0" {
		preload = "no keys preloaded" // from a dbmeter before 2026-11, where only set and batchset ran
	}
	fmt.Fprintf(w, "kv  %s  ·  %s workers  ·  %s  ·  %s  ·  %s\n",
		fsync, p["workers"], preload, kvSizes(p, rows), kvWindow(p, rows, repeat))
	if mode == "true" || disk.Storage != nil {
		fmt.Fprintln(w, kvDiskLine(disk))
	}
	if line := storageLine(disk); line != "" {
		fmt.Fprintln(w, line)
	}

	cell := func(op, e string, f func(r result.Run) string) string {
		r, ok := cells[[2]string{op, e}]
		if !ok {
			return "-"
		}
		if kvNotSupported(r) {
			return "not supported"
		}
		s := f(r)
		if r.Errors > 0 {
			s += "!"
		}
		return s
	}
	header := "throughput (ops/s)\t" + strings.Join(engines.keys, "\t") + "\t"

	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header)
	flagged := false
	for _, op := range rows {
		label := op
		if op == "batchset" {
			label = "batchset (batches/s)"
		}
		fmt.Fprint(tw, label+"\t")
		for _, e := range engines.keys {
			fmt.Fprint(tw, cell(op, e, func(r result.Run) string {
				s, f := kvThroughputCell(r.OpsPerS, reps[[2]string{op, e}])
				flagged = flagged || f
				return s
			})+"\t")
		}
		fmt.Fprintln(tw)
		if op == "batchset" {
			fmt.Fprint(tw, "batchset (keys/s)\t")
			for _, e := range engines.keys {
				fmt.Fprint(tw, cell(op, e, func(r result.Run) string { return Count(r.RowsPerS) })+"\t")
			}
			fmt.Fprintln(tw)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, kvSpreadNote(repeat, flagged))
	if mode == "true" {
		for _, e := range engines.keys {
			for _, op := range rows {
				if r, ok := cells[[2]string{op, e}]; ok {
					if why := kvImplausible(r, disk.Fsync); why != "" {
						fmt.Fprintln(w, "WARNING: "+why)
					}
				}
			}
		}
	}

	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "latency per op\t"+strings.Join(engines.keys, "\t")+"\t")
	stats := []struct {
		name string
		f    func(r result.Run) string
	}{
		{"p50", func(r result.Run) string { return Nanos(r.Latency.P50) }},
		{"p99", func(r result.Run) string { return Nanos(r.Latency.P99) }},
		{"mean", func(r result.Run) string { return nanos(r.Latency.Mean) }},
	}
	for _, op := range rows {
		for _, st := range stats {
			fmt.Fprintf(tw, "%s %s\t", op, st.name)
			for _, e := range engines.keys {
				fmt.Fprint(tw, cell(op, e, st.f)+"\t")
			}
			fmt.Fprintln(tw)
		}
		if op == "batchset" {
			fmt.Fprint(tw, "batchset mean per key\t")
			for _, e := range engines.keys {
				fmt.Fprint(tw, cell(op, e, func(r result.Run) string { return nanos(r.Extra["ns_per_key"]) })+"\t")
			}
			fmt.Fprintln(tw)
		}
	}
	return tw.Flush()
}

// kvWindow says how long each cell ran, and how often.
func kvWindow(p map[string]string, ops []string, repeat int) string {
	s := p["duration"]
	if c := p["count"]; c != "" && c != "0" {
		s = c + " ops"
	}
	if repeat > 1 {
		s = fmt.Sprintf("%d repetitions of %s", repeat, s)
	} else {
		s += " per cell"
	}
	if w := p["warmup"]; w != "" && w != "0s" {
		s += " after " + w + " of warm-up"
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

// kvGroups holds runs grouped by a key, keys in order of first appearance.
type kvGroups struct {
	keys []string
	runs map[string][]result.Run
}

func kvGroup(runs []result.Run, key func(result.Run) string) kvGroups {
	g := kvGroups{runs: map[string][]result.Run{}}
	for _, r := range runs {
		k := key(r)
		if _, ok := g.runs[k]; !ok {
			g.keys = append(g.keys, k)
		}
		g.runs[k] = append(g.runs[k], r)
	}
	return g
}
