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
		figs = append(figs, firstOf(externalColumns)...)
	}
	return variantGrid("ch insert: rows per second by client", l, es, lead, []string{result.SettingWorkers, result.SettingBatch, result.SettingBlocksPerInsert}, figs)
}

// phaseMedian is the median over a variant's repetitions of a phase's p50
// (a phase keeps no histogram to add).
func phaseMedian(v variant, name string) string {
	var vs []float64
	for _, r := range v.reps {
		if p, ok := r.Phases[name]; ok {
			vs = append(vs, float64(p.P50))
		}
	}
	if len(vs) == 0 {
		return "-"
	}
	return nanos(median(vs))
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

// firstOf makes one-row-per-run columns variant columns that show the
// variant's first repetition.
func firstOf(cols []column) []vcolumn {
	out := make([]vcolumn, len(cols))
	for i, c := range cols {
		out[i] = vcolumn{c.head, func(v variant, _ *marks) string { return c.cell(v.first) }}
	}
	return out
}

func buildShare(r *result.Run) string {
	build, send := r.Extra["build_s"], r.Extra["send_s"]
	if build+send <= 0 || r.External != nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*build/(build+send))
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
// worker's own timing of an operation, and the protocol's round trip
// beside it (docs/worker-protocol.md); dashes for a Go client.
var externalColumns = []column{
	{"client p50", func(e entry) string {
		if ph, ok := e.run.Phases["client"]; ok && ph.Count > 0 && e.run.External != nil {
			return Nanos(ph.P50)
		}
		return "-"
	}},
	{"rtt p50", func(e entry) string {
		if e.run.External == nil {
			return "-"
		}
		return Nanos(e.run.External.RTT.P50)
	}},
	{"rtt p99", func(e entry) string {
		if e.run.External == nil {
			return "-"
		}
		return Nanos(e.run.External.RTT.P99)
	}},
	// The workers' CPU per operation, which cpu per row includes.
	{"workers cpu/op", func(e entry) string {
		if e.run.External == nil {
			return "-"
		}
		return nanos(e.run.Client.WorkersCPUNsPerOp)
	}},
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

// insertPhase is a Go client's build or send phase; "-" for an external
// client, whose worker builds and sends its block inside one exchange
// (client p50 is that).
func insertPhase(v variant, name string) string {
	if v.first.run.External != nil {
		return "-"
	}
	return phaseMedian(v, name)
}
