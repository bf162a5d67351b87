package report

import (
	"fmt"
	"slices"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chQueryTable is the `ch query` grid: one row per client × setting, its
// repetitions pooled, the settings that vary between runs each a column
// (the labeler's split params, so a --matrix run shows its knobs side by
// side and a plain run stays narrow): the requested rate and the one
// achieved (with its interval), latency from the intended start, errors,
// drops, connections opened and decode time per row. A capacity search's
// steps, each at a rate of its own, are one row each.
func chQueryTable(l labeler, es []entry) Grid {
	if slices.ContainsFunc(es, func(e entry) bool { return e.run.Verdict != nil }) {
		return runTable("ch query: latency at the requested rate", l, es)
	}
	lead := []vcolumn{
		{"mode", func(v variant, _ *marks) string { return v.first.run.Mode }},
		{"rate/s", func(v variant, _ *marks) string { return requestedRate(v.first.run) }},
	}
	figs := []vcolumn{throughputCol("achieved/s", func(r *result.Run) float64 { return r.OpsPerS }, func(x float64) string {
		if x < 100 {
			return fmt.Sprintf("%.1f", x)
		}
		return Count(x)
	})}
	figs = append(figs, latencyCols()...)
	figs = append(figs, errorsCol("errors"),
		vcolumn{"dropped", func(v variant, _ *marks) string { return fmt.Sprint(v.pooled.Dropped) }},
		vcolumn{"conns", func(v variant, _ *marks) string { return extraCount(&v.pooled, "conns_opened") }},
		vcolumn{"decode/row", func(v variant, _ *marks) string { return extraNanos(&v.pooled, "decode_ns_per_row") }},
		repsCol())
	if anyExternal(es) {
		figs = append(figs, externalColumns()...)
	}
	return variantGrid("ch query: latency at the requested rate", l, es, lead, []string{result.SettingRate}, figs)
}

// requestedRate is an open run's rate, "-" for a closed one.
func requestedRate(r *result.Run) string {
	if r.Mode != "open" {
		return "-"
	}
	return Count(r.Rate)
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
