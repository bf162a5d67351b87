package report

import (
	"fmt"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chQueryKnobs are the `ch query` settings, in the order the table shows
// them. Only the ones whose values differ between runs get a column, so a
// --matrix run shows its knobs side by side and a plain run stays narrow.
var chQueryKnobs = []string{"protocol", "prepared", "decode", "pool-max-open", "pool-max-idle", "pool-idle-timeout", "pool-lifetime"}

// chQueryTable is the `ch query` grid: one row per client × setting ×
// repetition, with the requested and achieved rates, latency from the
// intended start, errors, connections opened and decode time per row.
func chQueryTable(l labeler, es []entry) Grid {
	runs := make([]result.Run, len(es))
	for i, e := range es {
		runs[i] = *e.run
	}
	cols := []column{{"client", l.target}, {"workload", func(e entry) string { return e.run.Workload }}}
	for _, k := range chQueryKnobs {
		if varies(runs, k) {
			cols = append(cols, column{k, func(e entry) string { return e.run.Params[k] }})
		}
	}
	labels := len(cols)
	run := func(f func(r *result.Run) string) func(entry) string {
		return func(e entry) string { return f(e.run) }
	}
	cols = append(cols,
		column{"mode", run(func(r *result.Run) string { return r.Mode })},
		column{"rate/s", run(func(r *result.Run) string { return requestedRate(r) })},
		column{"achieved/s", run(extraRate)},
		column{"rep", run(func(r *result.Run) string { return fmt.Sprint(r.Repeat) })},
		column{"p50", run(func(r *result.Run) string { return Nanos(r.Latency.P50) })},
		column{"p90", run(func(r *result.Run) string { return Nanos(r.Latency.P90) })},
		column{"p99", run(func(r *result.Run) string { return Nanos(r.Latency.P99) })},
		column{"lag p99", run(lagCell)},
		column{"p99.9", run(func(r *result.Run) string { return Nanos(r.Latency.P999) })},
		column{"max", run(func(r *result.Run) string { return Nanos(r.Latency.Max) })},
		column{"errors", run(func(r *result.Run) string { return fmt.Sprint(r.Errors) })},
		column{"dropped", run(func(r *result.Run) string { return fmt.Sprint(r.Dropped) })},
		column{"conns", run(func(r *result.Run) string { return extraCount(r, "conns_opened") })},
		column{"decode/row", run(func(r *result.Run) string { return extraNanos(r, "decode_ns_per_row") })},
	)
	if anyExternal(es) {
		cols = append(cols, externalColumns...)
	}
	return columnsGrid("ch query: latency at the requested rate", labels, cols, es)
}

// requestedRate is an open run's rate, "-" for a closed one.
func requestedRate(r *result.Run) string {
	if r.Mode != "open" {
		return "-"
	}
	return Count(r.Rate)
}

func varies(runs []result.Run, key string) bool {
	for _, r := range runs[1:] {
		if r.Params[key] != runs[0].Params[key] {
			return true
		}
	}
	return false
}

func extraRate(r *result.Run) string {
	v, ok := r.Extra["achieved_rate_ops_s"]
	if !ok {
		return "-"
	}
	if v < 100 {
		return fmt.Sprintf("%.1f", v)
	}
	return Count(v)
}

func extraCount(r *result.Run, key string) string {
	v, ok := r.Extra[key]
	if !ok {
		return "-"
	}
	return Count(v)
}

func extraNanos(r *result.Run, key string) string {
	v, ok := r.Extra[key]
	if !ok {
		return "-"
	}
	return nanos(v)
}
