package report

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chServerStatsText prints, under the ch tables, where each run's time
// went by the server's own figures.
func chServerStatsText(w io.Writer, runs []result.Run) {
	if same := sameUnavailable(runs); same != nil {
		// One notice, not one per run (issue 35: eight against ch null-server).
		fmt.Fprintf(w, "\nwhere the time goes, for every run: %s\n", strings.Join(same, "; "))
		return
	}
	for _, r := range runs {
		if r.ServerStats != nil {
			fmt.Fprintf(w, "\n%s %s (rep %d): ", r.Target, r.Workload, r.Repeat)
			serverStatsText(w, r)
		}
	}
}

// sameUnavailable is the one account of the server's figures of runs that
// have none but the same lines saying why, or nil.
func sameUnavailable(runs []result.Run) []string {
	var same []string
	for i, r := range runs {
		s := r.ServerStats
		if s == nil || len(s.Unavailable) == 0 {
			return nil
		}
		bare := *s
		bare.Unavailable = nil
		if !reflect.ValueOf(bare).IsZero() || i > 0 && !slices.Equal(s.Unavailable, same) {
			return nil
		}
		same = s.Unavailable
	}
	if len(runs) < 2 {
		return nil
	}
	return same
}

// insertColumns are the `ch insert` table's columns, in the seed's layout:
// one row per client path with rows/s and MB/s (uncompressed payload),
// batch latency, how a batch's time split between building it in the
// client and sending it, what the client process spent per row, and
// whether the server counted every row. Adding a column here adds it to
// every format.
func insertColumns(l labeler) []column {
	run := func(f func(r *result.Run) string) func(entry) string {
		return func(e entry) string { return f(e.run) }
	}
	return []column{
		{"client", l.target},
		{"server", run(func(r *result.Run) string { return orDash(r.Server) })},
		{"workers", run(func(r *result.Run) string { return strconv.Itoa(r.Workers) })},
		{"batch", run(func(r *result.Run) string { return orDash(r.Params["batch"]) })},
		{"blk/ins", run(func(r *result.Run) string { return orDash(r.Params["blocks-per-insert"]) })},
		{"rep", run(func(r *result.Run) string { return strconv.Itoa(r.Repeat) })},
		{"rows/s", run(func(r *result.Run) string { return Count(r.RowsPerS) })},
		{"MB/s", run(func(r *result.Run) string { return fmt.Sprintf("%.1f", r.BytesPerS/1e6) })},
		{"batches/s", run(func(r *result.Run) string { return fmt.Sprintf("%.2f", r.OpsPerS) })},
		{"batch p50", run(func(r *result.Run) string { return Nanos(r.Latency.P50) })},
		{"batch p99", run(func(r *result.Run) string { return Nanos(r.Latency.P99) })},
		{"build p50", run(func(r *result.Run) string { return phase(r, "build") })},
		{"send p50", run(func(r *result.Run) string { return phase(r, "send") })},
		{"build %", run(buildShare)},
		{"cpu µs/row", run(func(r *result.Run) string { return fmt.Sprintf("%.2f", r.Extra["client_cpu_us_per_row"]) })},
		{"allocs/row", run(func(r *result.Run) string { return fmt.Sprintf("%.1f", r.Extra["allocs_per_row"]) })},
		{"rows", run(func(r *result.Run) string { return Count(float64(r.Rows)) })},
		{"counted", run(rowsCounted)},
		{"errors", run(func(r *result.Run) string { return strconv.FormatInt(r.Errors, 10) })},
	}
}

// insertTable is the `ch insert` grid: insertColumns, and the external
// worker's columns when a client ran as one.
func insertTable(l labeler, es []entry) Grid {
	cols := insertColumns(l)
	if anyExternal(es) {
		cols = append(cols, externalColumns...)
	}
	return columnsGrid("ch insert: rows per second by client", 2, cols, es)
}

func buildShare(r *result.Run) string {
	build, send := r.Extra["build_s"], r.Extra["send_s"]
	if build+send <= 0 {
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

func phase(r *result.Run, name string) string {
	p, ok := r.Phases[name]
	if !ok {
		return "-"
	}
	return Nanos(p.P50)
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
