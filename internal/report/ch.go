package report

import (
	"fmt"
	"strconv"

	"github.com/dbmeter/dbmeter/internal/result"
)

// insertTable is the `ch insert` grid in the seed's layout: one row per
// client path and variant (--batch and --workers lists), its repetitions
// pooled: rows/s with its interval and MB/s (uncompressed payload), batch
// latency, how a batch's time split between building it in the client and
// sending it, what the client process spent per row, whether the server
// counted every row, and the external worker's columns when a client ran as
// one. Adding a column here adds it to every format.
func insertTable(l labeler, es []entry) Grid {
	lead := []vcolumn{
		{"server", func(v variant, _ *marks) string { return orDash(v.first.run.Server) }},
		{"workers", func(v variant, _ *marks) string { return strconv.Itoa(v.first.run.Workers) }},
		paramCol("batch", result.SettingBatch), paramCol("blk/ins", result.SettingBlocksPerInsert),
	}
	pooled := func(f func(r *result.Run) string) func(variant, *marks) string {
		return func(v variant, _ *marks) string { return f(&v.pooled) }
	}
	figs := []vcolumn{
		throughputCol("rows/s", func(r *result.Run) float64 { return r.RowsPerS }, Count),
		{"MB/s", pooled(func(r *result.Run) string { return fmt.Sprintf("%.1f", r.BytesPerS/1e6) })},
		{"batches/s", pooled(func(r *result.Run) string { return fmt.Sprintf("%.2f", r.OpsPerS) })},
		percentileCol("batch p50", 0.5, func(l result.Latency) int64 { return l.P50 }),
		percentileCol("batch p99", 0.99, func(l result.Latency) int64 { return l.P99 }),
		{"build p50", func(v variant, _ *marks) string { return insertPhase(v, "build") }},
		{"send p50", func(v variant, _ *marks) string { return insertPhase(v, "send") }},
		{"build %", pooled(buildShare)},
		// dbmeter's CPU and, for an external client, its workers'.
		{"cpu µs/row", pooled(func(r *result.Run) string { return fmt.Sprintf("%.2f", r.Extra["client_cpu_us_per_row"]) })},
		{"allocs/row", pooled(func(r *result.Run) string { return fmt.Sprintf("%.1f", r.Extra["allocs_per_row"]) })},
		{"rows", pooled(func(r *result.Run) string { return Count(float64(r.Rows)) })},
		{"counted", func(v variant, _ *marks) string { return repsCounted(v.reps) }},
		errorsCol("errors"), repsCol(),
	}
	if anyExternal(es) {
		figs = append(figs, externalColumns()...)
	}
	return variantGrid("ch insert: rows per second by client", l, es, lead, []string{result.SettingWorkers, result.SettingBatch, result.SettingBlocksPerInsert}, figs)
}

// repsCounted is rowsCounted of the first repetition whose count did not
// match, "ok" when every one did.
func repsCounted(reps []result.Run) string {
	for _, r := range reps {
		if c := rowsCounted(&r); c != "ok" {
			if len(reps) > 1 {
				c += fmt.Sprintf(" (rep %d)", r.Repeat)
			}
			return c
		}
	}
	return "ok"
}

// buildShare is the build phase's share of the time in both phases, all
// the (pooled) run's operations together.
func buildShare(r *result.Run) string {
	build, send := r.Phases["build"].TotalNs, r.Phases["send"].TotalNs
	if build+send <= 0 || r.External != nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(build)/float64(build+send))
}

// rowsCounted says whether the server's count of the rows matched what it
// acknowledged.
func rowsCounted(r *result.Run) string {
	switch {
	case r.Extra["rows_unverified"] > 0:
		return "unverified"
	case r.Extra["rows_counted"] != r.Extra["rows_acknowledged"]:
		return fmt.Sprintf("%s≠%s", Count(r.Extra["rows_counted"]), Count(r.Extra["rows_acknowledged"]))
	}
	return "ok"
}

// externalColumns are the columns of clients run as worker processes: the
// worker's own timing of an operation (its phase "client", pooled as the
// other figures), the protocol's round trip beside it
// (docs/worker-protocol.md; timed before the first repetition), and the
// workers' CPU per operation over all the repetitions, which cpu per row
// includes; dashes for a Go client.
func externalColumns() []vcolumn {
	ext := func(cell func(v variant, x *result.ExternalClient) string) func(variant, *marks) string {
		return func(v variant, _ *marks) string {
			if v.first.run.External == nil {
				return "-"
			}
			return cell(v, v.first.run.External)
		}
	}
	return []vcolumn{
		{"client p50", ext(func(v variant, _ *result.ExternalClient) string {
			if ph, ok := v.pooled.Phases["client"]; ok && ph.Count > 0 {
				return Nanos(ph.P50)
			}
			return "-"
		})},
		{"rtt p50", ext(func(_ variant, x *result.ExternalClient) string { return Nanos(x.RTT.P50) })},
		{"rtt p99", ext(func(_ variant, x *result.ExternalClient) string { return Nanos(x.RTT.P99) })},
		{"workers cpu/op", ext(func(v variant, _ *result.ExternalClient) string { return nanos(workersCPUPerOp(v)) })},
	}
}

func anyExternal(es []entry) bool {
	for _, e := range es {
		if e.run.External != nil {
			return true
		}
	}
	return false
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// insertPhase is the p50 of a Go client's build or send phase over the
// variant's repetitions pooled (their histograms added, as the batch
// latency's); "-" for an external client, whose worker builds and sends its
// block inside one exchange (client p50 is that).
func insertPhase(v variant, name string) string {
	ph, ok := v.pooled.Phases[name]
	if v.first.run.External != nil || !ok || ph.Count == 0 {
		return "-"
	}
	return nanos(float64(ph.P50))
}
