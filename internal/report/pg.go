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

// pgTables renders the pg family: for a single run pgbench's summary
// block, as a pgbench user knows it, then dbmeter's percentiles and client
// cost. With several variants (servers, drivers, -c or -j lists) the
// summary of each when every variant ran once, then the variant table
// (pgGrid); with repetitions only the table, each row its repetitions
// pooled with their interval.
func pgTables(w io.Writer, runs []result.Run) error {
	repeated := slices.ContainsFunc(runs, func(r result.Run) bool { return r.Repeat > 1 })
	if !repeated {
		for i, r := range runs {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := pgSummary(w, r); err != nil {
				return err
			}
		}
	}
	if len(runs) > 1 {
		if !repeated {
			fmt.Fprintln(w)
		}
		if slices.ContainsFunc(runs, func(r result.Run) bool { return r.Verdict != nil }) {
			return pgSideBySide(w, runs)
		}
		return textGrid(w, runsGrid(runs, pgGrid))
	}
	return nil
}

// pgGrid is pg's variant table: one row per server × driver × -c × -j,
// its repetitions pooled, with what a pgbench user reads first beside the
// figures (query mode, server version, clients and threads).
func pgGrid(l labeler, es []entry) Grid {
	lead := []vcolumn{
		paramCol("query mode", "query_mode"),
		{"server", func(v variant, _ *marks) string { return v.first.run.Server }},
		paramCol("clients", "client"), paramCol("jobs", "jobs"),
	}
	figs := []vcolumn{throughputCol("tps", func(r *result.Run) float64 { return r.OpsPerS }, func(v float64) string { return fmt.Sprintf("%.1f", v) })}
	figs = append(figs, latencyCols()...)
	figs = append(figs, errorsCol("failed"),
		vcolumn{"cpu/tx", func(v variant, _ *marks) string { return nanos(cpuPerOp(v)) }}, repsCol())
	return variantGrid("pg: transactions per second and latency", l, es, lead, []string{"query_mode", "client", "jobs"}, figs)
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
	p := r.Params
	fmt.Fprintf(w, "== %s  (%s) ==\n", r.Target, r.Server)
	fmt.Fprintf(w, "transaction type: %s\n", p["transaction_type"])
	fmt.Fprintf(w, "scaling factor: %s\n", p["scale"])
	fmt.Fprintf(w, "query mode: %s\n", p["query_mode"])
	fmt.Fprintf(w, "number of clients: %s\n", p["client"])
	fmt.Fprintf(w, "number of threads: %s\n", p["jobs"])
	fmt.Fprintf(w, "driver: %s\n", p["driver"])
	if p["max-tries"] != "" {
		fmt.Fprintf(w, "maximum number of tries: %s\n", p["max-tries"])
	}
	total := float64(r.Ops + r.Errors)
	if t, _ := strconv.Atoi(p["time"]); t > 0 {
		fmt.Fprintf(w, "duration: %d s\n", t)
		fmt.Fprintf(w, "number of transactions actually processed: %d\n", r.Ops)
	} else {
		perClient, _ := strconv.ParseInt(p["transactions"], 10, 64)
		clients, _ := strconv.ParseInt(p["client"], 10, 64)
		fmt.Fprintf(w, "number of transactions per client: %d\n", perClient)
		fmt.Fprintf(w, "number of transactions actually processed: %d/%d\n", r.Ops, perClient*clients)
	}
	aborted := r.ErrorKinds["aborted"]
	failed := r.Errors - aborted
	fmt.Fprintf(w, "number of failed transactions: %d (%.3f%%)\n", failed, pct(float64(failed), total))
	if p["failures-detailed"] == "true" {
		dl := r.Extra["deadlock_failures"]
		ser := float64(r.ErrorKinds["serialization"]) - dl
		fmt.Fprintf(w, "number of serialization failures: %.0f (%.3f%%)\n", ser, pct(ser, total))
		fmt.Fprintf(w, "number of deadlock failures: %.0f (%.3f%%)\n", dl, pct(dl, total))
	}
	if aborted > 0 {
		fmt.Fprintf(w, "number of transactions not run (client aborted): %d\n", aborted)
	}
	if p["max-tries"] != "" && p["max-tries"] != "1" {
		retried, retries := r.Extra["retried_ops"], r.Extra["retries"]
		fmt.Fprintf(w, "number of transactions retried: %.0f (%.3f%%)\n", retried, pct(retried, total))
		fmt.Fprintf(w, "total number of retries: %.0f\n", retries)
	}
	if r.Mode == "open" {
		if skipped, ok := r.Extra["skipped_ops"]; ok && p["latency-limit"] != "0" {
			fmt.Fprintf(w, "number of transactions skipped: %.0f (%.3f%%)\n", skipped, pct(skipped, total+skipped))
		}
	}
	if late, ok := r.Extra["late_ops"]; ok {
		fmt.Fprintf(w, "number of transactions above the %s ms latency limit: %.0f/%d (%.3f%%)\n",
			p["latency-limit"], late, r.Ops, pct(late, float64(r.Ops)))
	}
	fmt.Fprintf(w, "latency average = %s ms\n", ms(r.Latency.Mean))
	fmt.Fprintf(w, "latency stddev = %s ms\n", ms(r.Latency.Stddev))
	if lag, ok := r.Extra["schedule_lag_ns_mean"]; ok {
		fmt.Fprintf(w, "rate limit schedule lag: avg %s ms\n", ms(lag))
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
	serverStatsText(w, r)
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
	retries := r.Params["max-tries"] != "" && r.Params["max-tries"] != "1"
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

// pgSideBySide compares the runs in one table, one row per server ×
// driver.
func pgSideBySide(w io.Writer, runs []result.Run) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\tserver\tscript\tmode\tclients\ttps\tlat avg\tp50\tp90\tp99\tp99.9\tmax\tfailed\tcpu/tx\t")
	for _, r := range runs {
		l := r.Latency
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t\n",
			r.Target, strings.TrimPrefix(r.Server, "PostgreSQL "), r.Workload, r.Params["query_mode"], r.Params["client"],
			fmt.Sprintf("%.1f", r.OpsPerS), nanos(l.Mean), Nanos(l.P50), Nanos(l.P90), Nanos(l.P99), Nanos(l.P999), Nanos(l.Max),
			r.Errors, nanos(r.Client.CPUNsPerOp))
	}
	return tw.Flush()
}
