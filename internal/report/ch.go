package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chTables renders the ch family: insert runs in the insert layout, query
// runs in the query layout (chquery.go).
func chTables(w io.Writer, runs []result.Run) error {
	var inserts, queries []result.Run
	for _, r := range runs {
		if r.Workload == "insert" {
			inserts = append(inserts, r)
		} else {
			queries = append(queries, r)
		}
	}
	if len(inserts) > 0 {
		if err := chInsertTable(w, inserts); err != nil {
			return err
		}
	}
	if len(queries) > 0 {
		if err := chQueryTable(w, queries); err != nil {
			return err
		}
	}
	for _, r := range runs {
		if r.ServerStats != nil {
			fmt.Fprintf(w, "\n%s %s (rep %d): ", r.Target, r.Workload, r.Repeat)
			serverStatsText(w, r)
		}
	}
	return nil
}

// chInsertTable renders `ch insert` runs from chInsertGrid.
func chInsertTable(w io.Writer, runs []result.Run) error {
	return gridText(w, textGrid(runs, chInsertGrid))
}

// chInsertGrid is the seed's layout, one row per client path and variant
// (--batch, --workers lists), its repetitions pooled: rows/s with its
// interval, MB/s (uncompressed payload), batch latency, what the client
// process spent per row, and how a batch's time split between building it
// in the client and sending it.
func chInsertGrid(l labeler, es []entry) Grid {
	lead := []column{
		{"server", func(v variant, _ *marks) string { return orDash(v.first.run.Server) }},
		{"workers", func(v variant, _ *marks) string { return strconv.Itoa(v.first.run.Workers) }},
		paramCol("batch", "batch"), paramCol("blk/ins", "blocks-per-insert"),
	}
	figs := []column{
		throughputCol("rows/s", func(r *result.Run) float64 { return r.RowsPerS }, Count),
		{"MB/s", func(v variant, _ *marks) string { return fmt.Sprintf("%.1f", v.pooled.BytesPerS/1e6) }},
		{"batches/s", func(v variant, _ *marks) string { return fmt.Sprintf("%.2f", v.pooled.OpsPerS) }},
		percentileCol("batch p50", 0.5, func(l result.Latency) int64 { return l.P50 }),
		percentileCol("batch p99", 0.99, func(l result.Latency) int64 { return l.P99 }),
		{"build p50", func(v variant, _ *marks) string { return phaseMedian(v, "build") }},
		{"send p50", func(v variant, _ *marks) string { return phaseMedian(v, "send") }},
		{"build %", func(v variant, _ *marks) string { return buildShare(v) }},
		{"cpu µs/row", func(v variant, _ *marks) string { return fmt.Sprintf("%.2f", v.pooled.Extra["client_cpu_us_per_row"]) }},
		{"allocs/row", func(v variant, _ *marks) string { return fmt.Sprintf("%.1f", v.pooled.Extra["allocs_per_row"]) }},
		{"rows", func(v variant, _ *marks) string { return Count(float64(v.pooled.Rows)) }},
		{"counted", func(v variant, _ *marks) string { return counted(v.reps) }},
		errorsCol("errors"), repsCol(),
	}
	if anyExternal(runsOfEntries(es)) {
		figs = append(figs, externalCols()...)
	}
	return variantGrid("ch insert: rows per second by client", l, es, lead, []string{"workers", "batch", "blocks-per-insert"}, figs)
}

// phaseMedian is the median over a variant's repetitions of a phase's p50
// (the phases keep no histogram to add).
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

// buildShare is the share of a batch's time spent building it, over all
// the repetitions.
func buildShare(v variant) string {
	var build, send float64
	for _, r := range v.reps {
		build += r.Extra["build_s"]
		send += r.Extra["send_s"]
	}
	if build+send == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*build/(build+send))
}

// counted says whether every repetition's rows were found in the table.
func counted(reps []result.Run) string {
	for _, r := range reps {
		if r.Extra["rows_unverified"] > 0 {
			return "unverified"
		}
	}
	for _, r := range reps {
		if c, a := r.Extra["rows_counted"], r.Extra["rows_acknowledged"]; c != a {
			return fmt.Sprintf("%s≠%s (rep %d)", Count(c), Count(a), r.Repeat)
		}
	}
	return "ok"
}

func runsOfEntries(es []entry) []result.Run {
	out := make([]result.Run, len(es))
	for i, e := range es {
		out[i] = *e.run
	}
	return out
}

// externalCols are the externalHead columns of a variant's first
// repetition; dashes for a Go client.
func externalCols() []column {
	heads := strings.Split(strings.TrimSuffix(externalHead, "\t"), "\t")
	var out []column
	for i, h := range heads {
		out = append(out, column{h, func(v variant, _ *marks) string {
			return strings.Split(externalCells(*v.first.run), "\t")[i]
		}})
	}
	return out
}

// externalHead heads the columns of clients run as worker processes: the
// worker's own timing of an operation, and the protocol's round trip
// beside it (docs/worker-protocol.md).
const externalHead = "client p50\trtt p50\trtt p99\t"

func anyExternal(runs []result.Run) bool {
	for _, r := range runs {
		if r.External != nil {
			return true
		}
	}
	return false
}

// externalCells are a run's externalHead columns; dashes for a Go client.
func externalCells(r result.Run) string {
	if r.External == nil {
		return "-\t-\t-\t"
	}
	client := "-"
	if ph, ok := r.Phases["client"]; ok && ph.Count > 0 {
		client = Nanos(ph.P50)
	}
	return client + "\t" + Nanos(r.External.RTT.P50) + "\t" + Nanos(r.External.RTT.P99) + "\t"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
