package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chQueryKnobs are the `ch query` settings, in the order the table shows
// them. Only the ones whose values differ between runs get a column, so a
// --matrix run shows its knobs side by side and a plain run stays narrow.
var chQueryKnobs = []string{"protocol", "prepared", "decode", "pool-max-open", "pool-max-idle", "pool-idle-timeout", "pool-lifetime"}

// chQueryTable renders `ch query` runs: one row per client × setting ×
// repetition, with the requested and achieved rates, latency from the
// intended start, errors, connections opened and decode time per row.
func chQueryTable(w io.Writer, runs []result.Run) error {
	var knobs []string
	for _, k := range chQueryKnobs {
		if varies(runs, k) {
			knobs = append(knobs, k)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"client", "workload"}
	head = append(head, knobs...)
	head = append(head, "mode", "rate/s", "achieved/s", "rep", "p50", "p90", "p99", "lag p99", "p99.9", "max", "errors", "dropped", "conns", "decode/row")
	ext := anyExternal(runs)
	if ext {
		head = append(head, strings.Split(strings.TrimSuffix(externalHead, "\t"), "\t")...)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, r := range runs {
		row := []string{r.Target, r.Workload}
		for _, k := range knobs {
			row = append(row, r.Params[k])
		}
		rate := "-"
		if r.Mode == "open" {
			rate = Count(r.Rate)
		}
		l := r.Latency
		row = append(row, r.Mode, rate, extraRate(r), fmt.Sprint(r.Repeat),
			Nanos(l.P50), Nanos(l.P90), Nanos(l.P99), lagCell(&r), Nanos(l.P999), Nanos(l.Max),
			fmt.Sprint(r.Errors), fmt.Sprint(r.Dropped), extraCount(r, "conns_opened"), extraNanos(r, "decode_ns_per_row"))
		line := strings.Join(row, "\t") + "\t"
		if ext {
			line += externalCells(r)
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
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
