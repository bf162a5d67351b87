package report

import (
	"fmt"
	"io"
	"slices"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chQueryKnobs are the `ch query` settings a --matrix varies; the variant
// table gives a column to each that differs between runs (the labeler's
// split params), so a plain run stays narrow.
var chQueryKnobs = []string{"protocol", "prepared", "decode", "pool-max-open", "pool-max-idle", "pool-idle-timeout", "pool-lifetime"}

// chQueryTable renders `ch query` runs from chQueryGrid.
func chQueryTable(w io.Writer, runs []result.Run) error {
	if slices.ContainsFunc(runs, func(r result.Run) bool { return r.Verdict != nil }) {
		// A capacity search's steps, each at its own rate: one row each.
		return gridText(w, textGrid(runs, func(l labeler, es []entry) Grid {
			return runTable("ch query: latency at the requested rate", l, es)
		}))
	}
	return gridText(w, textGrid(runs, chQueryGrid))
}

// chQueryGrid is one row per client × setting, its repetitions pooled:
// the requested rate and the one achieved (with its interval), latency
// from the intended start, errors, drops, connections opened and decode
// time per row.
func chQueryGrid(l labeler, es []entry) Grid {
	lead := []column{
		{"mode", func(v variant, _ *marks) string { return v.first.run.Mode }},
		{"rate/s", func(v variant, _ *marks) string {
			if v.first.run.Mode != "open" {
				return "-"
			}
			return Count(v.first.run.Rate)
		}},
	}
	figs := []column{throughputCol("achieved/s", func(r *result.Run) float64 { return r.OpsPerS }, func(x float64) string {
		if x < 100 {
			return fmt.Sprintf("%.1f", x)
		}
		return Count(x)
	})}
	figs = append(figs, latencyCols()...)
	figs = append(figs, errorsCol("errors"),
		column{"dropped", func(v variant, _ *marks) string { return fmt.Sprint(v.pooled.Dropped) }},
		column{"conns", func(v variant, _ *marks) string { return extraCount(v.pooled, "conns_opened") }},
		column{"decode/row", func(v variant, _ *marks) string { return extraNanos(v.pooled, "decode_ns_per_row") }},
		repsCol())
	if anyExternal(runsOfEntries(es)) {
		figs = append(figs, externalCols()...)
	}
	return variantGrid("ch query: latency at the requested rate", l, es, lead, []string{"rate"}, figs)
}

func varies(runs []result.Run, key string) bool {
	for _, r := range runs[1:] {
		if r.Params[key] != runs[0].Params[key] {
			return true
		}
	}
	return false
}

func extraRate(r result.Run) string {
	v, ok := r.Extra["achieved_rate_ops_s"]
	if !ok {
		return "-"
	}
	if v < 100 {
		return fmt.Sprintf("%.1f", v)
	}
	return Count(v)
}

func extraCount(r result.Run, key string) string {
	v, ok := r.Extra[key]
	if !ok {
		return "-"
	}
	return Count(v)
}

func extraNanos(r result.Run, key string) string {
	v, ok := r.Extra[key]
	if !ok {
		return "-"
	}
	return nanos(v)
}
