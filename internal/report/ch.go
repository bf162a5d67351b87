package report

import (
	"fmt"
	"io"
	"text/tabwriter"

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

// chInsertTable renders `ch insert` runs in the seed's layout, one row per
// client path: rows/s and MB/s (uncompressed payload), batch latency, what
// the client process spent per row, and how a batch's time split between
// building it in the client and sending it.
func chInsertTable(w io.Writer, runs []result.Run) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ext := anyExternal(runs)
	fmt.Fprint(tw, "client\tserver\tworkers\tbatch\tblk/ins\trep\trows/s\tMB/s\tbatch p50\tbatch p99\tbuild p50\tsend p50\tbuild %\tcpu µs/row\tallocs/row\trows\tcounted\terrors\t")
	if ext {
		fmt.Fprint(tw, externalHead)
	}
	fmt.Fprintln(tw)
	for _, r := range runs {
		build, send := r.Extra["build_s"], r.Extra["send_s"]
		share := "-"
		if build+send > 0 && r.External == nil {
			share = fmt.Sprintf("%.0f%%", 100*build/(build+send))
		}
		counted := "ok"
		if r.Extra["rows_unverified"] > 0 {
			counted = "unverified"
		} else if r.Extra["rows_counted"] != r.Extra["rows_acknowledged"] {
			counted = fmt.Sprintf("%s≠%s", Count(r.Extra["rows_counted"]), Count(r.Extra["rows_acknowledged"]))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%d\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\t%.2f\t%.1f\t%s\t%s\t%d\t",
			r.Target, orDash(r.Server), r.Workers, orDash(r.Params["batch"]), orDash(r.Params["blocks-per-insert"]), r.Repeat,
			Count(r.RowsPerS), r.BytesPerS/1e6, Nanos(r.Latency.P50), Nanos(r.Latency.P99),
			insertPhase(&r, "build"), insertPhase(&r, "send"), share,
			r.Extra["client_cpu_us_per_row"], r.Extra["allocs_per_row"], Count(float64(r.Rows)), counted, r.Errors)
		if ext {
			fmt.Fprint(tw, externalCells(r))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// externalHead heads the columns of clients run as worker processes: the
// worker's own timing of an operation, and the protocol's round trip
// beside it (docs/worker-protocol.md).
const externalHead = "client p50\trtt p50\trtt p99\tworkers cpu/op\t"

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
		return "-\t-\t-\t-\t"
	}
	client := "-"
	if ph, ok := r.Phases["client"]; ok && ph.Count > 0 {
		client = Nanos(ph.P50)
	}
	workers := nanos(r.Client.WorkersCPUNsPerOp)
	return client + "\t" + Nanos(r.External.RTT.P50) + "\t" + Nanos(r.External.RTT.P99) + "\t" + workers + "\t"
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
func insertPhase(r *result.Run, name string) string {
	if r.External != nil {
		return "-"
	}
	return phase(r, name)
}
