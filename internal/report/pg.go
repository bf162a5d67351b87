package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// pgSummaries prints for each server × driver pgbench's summary block, as
// a pgbench user knows it, then dbmeter's percentiles and client cost.
func pgSummaries(w io.Writer, runs []result.Run) error {
	for i, r := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := pgSummary(w, r); err != nil {
			return err
		}
	}
	return nil
}

func ms(ns float64) string { return fmt.Sprintf("%.3f", ns/1e6) }

func pct(n, of float64) float64 {
	if of == 0 {
		return 0
	}
	return 100 * n / of
}

// pgSummary prints one run in pgbench's words and order.
func pgSummary(w io.Writer, r result.Run) error {
	set := func(name string) string { v, _ := r.Setting(name); return v }
	fmt.Fprintf(w, "== %s  (%s) ==\n", r.Target, r.Server)
	fmt.Fprintf(w, "transaction type: %s\n", set(result.SettingTransactionType))
	fmt.Fprintf(w, "scaling factor: %s\n", set(result.SettingScale))
	fmt.Fprintf(w, "query mode: %s\n", set(result.SettingQueryMode))
	fmt.Fprintf(w, "number of clients: %s\n", set(result.SettingClients))
	fmt.Fprintf(w, "number of threads: %s\n", set(result.SettingJobs))
	fmt.Fprintf(w, "driver: %s\n", set(result.SettingDriver))
	if tries, ok := r.Setting(result.SettingMaxTries); ok && tries != "" {
		fmt.Fprintf(w, "maximum number of tries: %s\n", tries)
	}
	pgCounts(w, r)
	fmt.Fprintf(w, "latency average = %s ms\n", ms(r.Latency.Mean))
	fmt.Fprintf(w, "latency stddev = %s ms\n", ms(r.Latency.Stddev))
	if lag, ok := r.Extra["schedule_lag_ns_mean"]; ok {
		// pgbench's words: "rate limit schedule lag: avg 0.123 (max 4.567) ms".
		fmt.Fprintf(w, "rate limit schedule lag: avg %s (max %s) ms\n", ms(lag), ms(float64(r.Lag.Max)))
	}
	if act, ok := r.Extra["average_connection_time_ns"]; ok {
		fmt.Fprintf(w, "average connection time = %s ms\n", ms(act))
		fmt.Fprintf(w, "tps = %f (including reconnection times)\n", r.OpsPerS)
	} else {
		fmt.Fprintf(w, "initial connection time = %s ms\n", ms(r.Extra["initial_connection_time_ns"]))
		fmt.Fprintf(w, "tps = %f (without initial connection time)\n", r.OpsPerS)
	}
	pgScripts(w, r)
	pgCommands(w, r)
	l := r.Latency
	fmt.Fprintf(w, "latency percentiles: p50 %s  p90 %s  p99 %s  p99.9 %s  max %s ms\n",
		ms(float64(l.P50)), ms(float64(l.P90)), ms(float64(l.P99)), ms(float64(l.P999)), ms(float64(l.Max)))
	if fewForPercentile(0.99, r.Ops) || fewForPercentile(0.999, r.Ops) {
		fmt.Fprintf(w, "  (from %d transactions: a percentile q needs 1/(1−q) of them, so the p99.9%s the maximum)\n",
			r.Ops, map[bool]string{true: " and the p99 are", false: " is"}[fewForPercentile(0.99, r.Ops)])
	}
	if r.Mode == "open" {
		s := r.Service
		fmt.Fprintf(w, "service time (from the actual start): p50 %s  p99 %s  max %s ms\n",
			ms(float64(s.P50)), ms(float64(s.P99)), ms(float64(s.Max)))
	}
	_, err := fmt.Fprintf(w, "client cpu per transaction = %s (dbmeter used %.0f%% of %s)\n",
		nanos(r.Client.CPUNsPerOp), r.Client.CPUUtil*100, "its CPUs")
	if n := r.Extra["reconnects"]; n > 0 && err == nil {
		_, err = fmt.Fprintf(w, "reconnects after lost connections: %.0f\n", n)
	}
	return err
}

// pgCommands prints pgbench's -r block: each command's mean latency,
// failures and, when transactions may be retried, retries.
func pgCommands(w io.Writer, r result.Run) {
	type cmd struct{ s, c int }
	var cmds []cmd
	for k := range r.Params {
		rest, ok := strings.CutPrefix(k, "command_")
		if !ok {
			continue
		}
		var c cmd
		if n, _ := fmt.Sscanf(rest, "%d_%d", &c.s, &c.c); n == 2 && fmt.Sprintf("%d_%d", c.s, c.c) == rest {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) == 0 {
		return
	}
	sort.Slice(cmds, func(i, j int) bool {
		return cmds[i].s < cmds[j].s || cmds[i].s == cmds[j].s && cmds[i].c < cmds[j].c
	})
	retries := pgRetries(&r)
	if retries {
		fmt.Fprintln(w, "statement latencies in milliseconds, failures and retries:")
	} else {
		fmt.Fprintln(w, "statement latencies in milliseconds and failures:")
	}
	last := -1
	for _, c := range cmds {
		key := fmt.Sprintf("command_%d_%d", c.s, c.c)
		if c.s != last && r.Params["script_1"] != "" {
			fmt.Fprintf(w, "SQL script %d: %s\n", c.s+1, r.Params[fmt.Sprintf("script_%d", c.s+1)])
		}
		last = c.s
		fmt.Fprintf(w, "%11.3f  %10.0f", r.Extra[key+"_latency_ns_mean"]/1e6, r.Extra[key+"_failures"])
		if retries {
			fmt.Fprintf(w, "  %10.0f", r.Extra[key+"_retries"])
		}
		fmt.Fprintf(w, "  %s\n", r.Params[key])
	}
}

// pgRetries says whether r's transactions could be retried: a try limit
// other than 1 (0 is no limit).
func pgRetries(r *result.Run) bool {
	tries, ok := r.IntSetting(result.SettingMaxTries)
	return ok && tries != 1
}

// pgCounts prints pgbench's counts of one run's transactions: processed,
// failed, unfinished, retried, skipped and late.
func pgCounts(w io.Writer, r result.Run) {
	// Neither a client's aborted transactions nor those an interrupt cut
	// short failed: pgbench counts neither.
	aborted, unfinished := r.ErrorKinds["aborted"], r.ErrorKinds["unfinished"]
	total := float64(r.Ops + r.Errors - unfinished)
	if t, _ := r.IntSetting(result.SettingTime); t > 0 {
		if r.Interrupted { // the measured window, not the -T asked for
			fmt.Fprintf(w, "duration: %.1f s (interrupted; -T %d s)\n", r.DurationS, t)
		} else {
			fmt.Fprintf(w, "duration: %d s\n", t)
		}
		fmt.Fprintf(w, "number of transactions actually processed: %d\n", r.Ops)
	} else {
		perClient, _ := r.IntSetting(result.SettingTransactions)
		clients, _ := r.IntSetting(result.SettingClients)
		fmt.Fprintf(w, "number of transactions per client: %d\n", perClient)
		fmt.Fprintf(w, "number of transactions actually processed: %d/%d\n", r.Ops, perClient*clients)
	}
	failed := r.Errors - aborted - unfinished
	fmt.Fprintf(w, "number of failed transactions: %d (%.3f%%)\n", failed, pct(float64(failed), total))
	if unfinished > 0 {
		fmt.Fprintf(w, "number of transactions unfinished at the interrupt: %d\n", unfinished)
	}
	if r.BoolSetting(result.SettingFailuresDetailed) {
		dl := r.Extra["deadlock_failures"]
		ser := float64(r.ErrorKinds["serialization"]) - dl
		fmt.Fprintf(w, "number of serialization failures: %.0f (%.3f%%)\n", ser, pct(ser, total))
		fmt.Fprintf(w, "number of deadlock failures: %.0f (%.3f%%)\n", dl, pct(dl, total))
	}
	if aborted > 0 {
		fmt.Fprintf(w, "number of transactions not run (client aborted): %d\n", aborted)
	}
	if pgRetries(&r) {
		retried, retries := r.Extra["retried_ops"], r.Extra["retries"]
		fmt.Fprintf(w, "number of transactions retried: %.0f (%.3f%%)\n", retried, pct(retried, total))
		fmt.Fprintf(w, "total number of retries: %.0f\n", retries)
	}
	if r.Mode == "open" {
		if skipped, ok := r.Extra["skipped_ops"]; ok && !pgNoLatencyLimit(&r) {
			fmt.Fprintf(w, "number of transactions skipped: %.0f (%.3f%%)\n", skipped, pct(skipped, total+skipped))
		}
	}
	if late, ok := r.Extra["late_ops"]; ok {
		limit, _ := r.FloatSetting(result.SettingLatencyLimit)
		fmt.Fprintf(w, "number of transactions above the %.1f ms latency limit: %.0f/%d (%.3f%%)\n",
			limit, late, r.Ops, pct(late, float64(r.Ops)))
	}
}

// pgNoLatencyLimit says whether r ran with -L given as 0 (no limit), as
// opposed to one given, or none recorded.
func pgNoLatencyLimit(r *result.Run) bool {
	l, ok := r.FloatSetting(result.SettingLatencyLimit)
	return ok && l == 0
}

// pgScripts prints pgbench's per-script block when a run mixed scripts.
func pgScripts(w io.Writer, r result.Run) {
	var idx []int
	for k := range r.Params {
		if n, ok := strings.CutPrefix(k, "script_"); ok && !strings.Contains(n, "_") {
			if i, err := strconv.Atoi(n); err == nil {
				idx = append(idx, i)
			}
		}
	}
	sort.Ints(idx)
	totalW := 0.0
	for _, i := range idx {
		wt, _ := strconv.ParseFloat(r.Params[fmt.Sprintf("script_%d_weight", i)], 64)
		totalW += wt
	}
	for _, i := range idx {
		key := fmt.Sprintf("script_%d", i)
		wt, _ := strconv.ParseFloat(r.Params[key+"_weight"], 64)
		ops, errs := r.Extra[key+"_ops"], r.Extra[key+"_errors"]
		tps := 0.0
		if r.DurationS > 0 {
			tps = ops / r.DurationS
		}
		fmt.Fprintf(w, "SQL script %d: %s\n", i, r.Params[key])
		fmt.Fprintf(w, " - weight: %.0f (targets %.1f%% of total)\n", wt, pct(wt, totalW))
		fmt.Fprintf(w, " - %.0f transactions (%.1f%% of total, tps = %f)\n", ops, pct(ops, float64(r.Ops)), tps)
		fmt.Fprintf(w, " - number of failed transactions: %.0f (%.3f%%)\n", errs, pct(errs, ops+errs))
		fmt.Fprintf(w, " - latency average = %s ms\n", ms(r.Extra[key+"_latency_ns_mean"]))
		fmt.Fprintf(w, " - latency stddev = %s ms\n", ms(r.Extra[key+"_latency_ns_stddev"]))
	}
}

// pgColumns are the columns of the pg table, one row per server ×
// driver (× step of a capacity search): what a pgbench user reads first
// (the script, the query mode -M, the server, the clients), then tps and
// latency as pgbench names them. Adding a column here adds it to every
// format.
func pgColumns(l labeler, es []entry) []column {
	steps := slices.ContainsFunc(es, func(e entry) bool { return e.run.Verdict != nil })
	if steps {
		// Each step's rate is its rate/s column, not part of its name.
		l.split = slices.DeleteFunc(slices.Clone(l.split), func(k string) bool { return k == result.SettingRate })
	}
	run := func(f func(r *result.Run) string) func(entry) string {
		return func(e entry) string { return f(e.run) }
	}
	cols := []column{
		{"target", l.target},
		{"script", run(func(r *result.Run) string { return r.Workload })},
		{"query mode", run(func(r *result.Run) string { v, _ := r.Setting(result.SettingQueryMode); return v })},
		{"server", run(func(r *result.Run) string { return strings.TrimPrefix(r.Server, "PostgreSQL ") })},
	}
	if steps {
		cols = append(cols, column{"step", run(func(r *result.Run) string { return stepCells(r)[0] })},
			column{"verdict", run(func(r *result.Run) string { return stepCells(r)[1] })})
	}
	cols = append(cols, column{"clients", run(func(r *result.Run) string { v, _ := r.Setting(result.SettingClients); return orDash(v) })})
	open := slices.ContainsFunc(es, func(e entry) bool { return e.run.Mode == "open" })
	if open {
		cols = append(cols, column{"rate/s", run(requestedRate)})
	}
	if slices.ContainsFunc(es, func(e entry) bool { return e.run.Repeat > 1 }) {
		cols = append(cols, column{"rep", run(func(r *result.Run) string { return strconv.Itoa(r.Repeat) })})
	}
	cols = append(cols,
		column{"tps", run(func(r *result.Run) string { return fmt.Sprintf("%.1f", r.OpsPerS) })},
		column{"lat avg", run(func(r *result.Run) string { return nanos(r.Latency.Mean) })},
		column{"p50", run(func(r *result.Run) string { return Nanos(r.Latency.P50) })},
		column{"p90", run(func(r *result.Run) string { return Nanos(r.Latency.P90) })},
		column{"p99", run(func(r *result.Run) string { return Nanos(r.Latency.P99) })},
		column{"p99.9", run(func(r *result.Run) string { return Nanos(r.Latency.P999) })},
		column{"max", run(func(r *result.Run) string { return Nanos(r.Latency.Max) })},
		column{"failed", run(func(r *result.Run) string { return strconv.FormatInt(r.Errors, 10) })},
	)
	if open {
		cols = append(cols, column{"dropped", run(func(r *result.Run) string { return strconv.FormatInt(r.Dropped, 10) })})
	}
	return append(cols, column{"cpu/tx", run(func(r *result.Run) string { return nanos(r.Client.CPUNsPerOp) })})
}

// pgTable is the pg table of every format; the terminal prints it under
// pgbench's summaries when there are several runs to set side by side.
func pgTable(l labeler, es []entry) Grid {
	cols := pgColumns(l, es)
	labels := 4
	if cols[4].head == "step" {
		labels = 6
	}
	return columnsGrid("pg: transactions per second and latency", labels, cols, es)
}

// pgGrid is pg's variant table: one row per server × driver × -c × -j,
// its repetitions pooled, with what a pgbench user reads first beside the
// figures (query mode, server version, clients and threads); a swept knob
// is a column. A capacity search's steps are pgTable's, one row each.
func pgGrid(l labeler, es []entry) Grid {
	lead := []vcolumn{
		paramCol("query mode", result.SettingQueryMode),
		{"server", func(v variant, _ *marks) string { return strings.TrimPrefix(v.first.run.Server, "PostgreSQL ") }},
		paramCol("clients", result.SettingClients), paramCol("jobs", result.SettingJobs),
	}
	open := slices.ContainsFunc(es, func(e entry) bool { return e.run.Mode == "open" })
	if open {
		lead = append(lead, vcolumn{"rate/s", func(v variant, _ *marks) string { return requestedRate(v.first.run) }})
	}
	figs := []vcolumn{throughputCol("tps", func(r *result.Run) float64 { return r.OpsPerS }, func(v float64) string { return fmt.Sprintf("%.1f", v) })}
	figs = append(figs, latencyCols()...)
	figs = append(figs, errorsCol("failed"))
	if open {
		figs = append(figs, vcolumn{"dropped", func(v variant, _ *marks) string { return strconv.FormatInt(v.pooled.Dropped, 10) }})
	}
	if slices.ContainsFunc(es, func(e entry) bool { _, ok := e.run.Extra["late_ops"]; return ok }) {
		figs = append(figs, vcolumn{"late", pgLate})
	}
	figs = append(figs, vcolumn{"cpu/tx", func(v variant, _ *marks) string { return nanos(cpuPerOp(v)) }}, repsCol())
	return variantGrid("pg: transactions per second and latency", l, es, lead, []string{result.SettingQueryMode, result.SettingClients, result.SettingJobs, result.SettingRate}, figs)
}

// pgLate is pgbench's "above the latency limit" for a variant's
// repetitions together: how many transactions lasted longer than -L, of
// all it completed; "-" for a variant run without -L.
func pgLate(v variant, _ *marks) string {
	var late float64
	var ops int64
	for _, r := range v.reps {
		l, ok := r.Extra["late_ops"]
		if !ok {
			return "-"
		}
		late, ops = late+l, ops+r.Ops
	}
	limit, _ := v.first.run.FloatSetting(result.SettingLatencyLimit)
	return fmt.Sprintf("%.0f > %.1fms (%.3f%%)", late, limit, pct(late, float64(ops)))
}
