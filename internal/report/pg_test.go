package report

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

func pgRun(target string, tps float64) result.Run {
	return result.Run{
		Family: "pg", Target: target, Workload: "select-only", Server: "PostgreSQL 15.18", Mode: "closed",
		Params: map[string]string{"transaction_type": "<builtin: select only>", "scale": "10", "query_mode": "prepared",
			"client": "8", "jobs": "2", "time": "10", "transactions": "10", "driver": "pgx", "latency_limit": "0"},
		Stats: result.Stats{DurationS: 10, Ops: int64(tps * 10), OpsPerS: tps,
			Latency: result.Latency{Mean: 312_000, Stddev: 45_000, P50: 300_000, P90: 400_000, P99: 900_000, P999: 2_000_000, Max: 5_000_000},
			Client:  result.Client{CPUNsPerOp: 11_500, CPUUtil: 0.4}},
		Extra: map[string]float64{"initial_connection_time_ns": 5_250_000},
	}
}

// pgTables renders pg runs as the terminal report does.
func pgTables(w io.Writer, runs []result.Run) error {
	return Text(w, &result.Document{Runs: runs})
}

func TestPGTables(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := pgTables(&b, []result.Run{pgRun("h:5432/pgx", 25000), pgRun("h:5432/pq", 20000)}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"transaction type: <builtin: select only>\n",
		"scaling factor: 10\n",
		"query mode: prepared\n",
		"number of clients: 8\n",
		"number of threads: 2\n",
		"duration: 10 s\n",
		"number of transactions actually processed: 250000\n",
		"number of failed transactions: 0 (0.000%)\n",
		"latency average = 0.312 ms\n",
		"latency stddev = 0.045 ms\n",
		"initial connection time = 5.250 ms\n",
		"tps = 25000.000000 (without initial connection time)\n",
		"latency percentiles: p50 0.300  p90 0.400  p99 0.900  p99.9 2.000  max 5.000 ms\n",
		"client cpu per transaction = 11.5µs",
		"h:5432/pq",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pg report lacks %q:\n%s", want, out)
		}
	}
	// Side by side: a header and one row per run.
	if n := strings.Count(out, "  select-only  prepared    "); n != 2 {
		t.Errorf("side-by-side table has %d rows, want 2:\n%s", n, out)
	}
}

func TestPGTablesCountMode(t *testing.T) {
	t.Parallel()
	r := pgRun("h:5432/pgx", 100)
	r.Params["time"] = "0"
	r.Ops, r.Errors = 78, 2
	r.Mode = "open"
	r.Extra["schedule_lag_ns_mean"] = 120_000
	r.Lag.Max = 4_567_000
	r.Extra["skipped_ops"] = 0
	var b bytes.Buffer
	if err := pgTables(&b, []result.Run{r}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"number of transactions per client: 10\n",
		"number of transactions actually processed: 78/80\n",
		"number of failed transactions: 2 (2.500%)\n",
		"rate limit schedule lag: avg 0.120 (max 4.567) ms\n", // pgbench's line
		"(from 78 transactions: a percentile q needs 1/(1−q) of them, so the p99.9 and the p99 are the maximum)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("pg report lacks %q:\n%s", want, b.String())
		}
	}
}

// TestPGTablesInterrupted: a run cut short by SIGINT says how long it was
// measured, not the -T asked for, and the transactions in flight at the
// interrupt are unfinished, not failed (issue 35).
func TestPGTablesInterrupted(t *testing.T) {
	t.Parallel()
	r := pgRun("h:5432/pgx", 6648)
	r.Params["time"] = "20"
	r.Interrupted, r.DurationS = true, 13.41
	r.Ops, r.Errors = 89154, 5
	r.ErrorKinds = map[string]int64{"unfinished": 4, "server": 1}
	var b bytes.Buffer
	if err := pgTables(&b, []result.Run{r}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"duration: 13.4 s (interrupted; -T 20 s)\n",
		"number of failed transactions: 1 (0.001%)\n",
		"number of transactions unfinished at the interrupt: 4\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pg report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "duration: 20 s") {
		t.Errorf("an interrupted run reports the -T asked for:\n%s", out)
	}
}

// TestPGGridAndCharts: the Markdown/HTML table of pg runs keeps what a
// pgbench user reads first (the query mode and the server), and no rows/s
// chart repeats the transactions of the ops/s one.
func TestPGGridAndCharts(t *testing.T) {
	t.Parallel()
	srcs := []Source{{Name: "pg.json", Doc: &result.Document{Runs: []result.Run{pgRun("h:5432/pgx", 25000)}}}}
	srcs[0].Doc.Runs[0].RowsPerS = 25000 // pg counts a transaction as a row
	g := Tables(srcs, 0)[0]
	if g.Header[2] != "query mode" || g.Header[3] != "server" || g.Rows[0][2] != "prepared" || g.Rows[0][3] != "15.18" {
		t.Errorf("pg grid header %q, row %q; want the query mode and the server beside the workload", g.Header, g.Rows[0])
	}
	charts, err := Charts(srcs)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range charts {
		if strings.Contains(c.Title, "rows/s") {
			t.Errorf("chart %q repeats the transactions per second", c.Title)
		}
	}
}

// TestCapacityStepsInTheGrid: a search's step table says which steps
// passed and why the others failed, and the drops a failing step was
// expected to have are not repeated as warnings to heed.
func TestCapacityStepsInTheGrid(t *testing.T) {
	t.Parallel()
	pass, fail := pgRun("h/pgx", 1000), pgRun("h/pgx", 2000)
	pass.Step, pass.Verdict = 1, &result.Verdict{Pass: true}
	fail.Step, fail.Verdict = 2, &result.Verdict{Pass: false, Reason: "p99 12ms > 5ms"}
	fail.Warnings = []string{"dropped: 40 operations in flight could not keep up"}
	doc := &result.Document{Runs: []result.Run{pass, fail}}
	g := Tables([]Source{{Name: "s.json", Doc: doc}}, 0)[0]
	v := slices.Index(g.Header, "verdict")
	if v < 0 || v >= g.Labels || g.Rows[0][v] != "pass" || g.Rows[1][v] != "FAIL: p99 12ms > 5ms" {
		t.Errorf("header %q (%d labels), rows %q; want a verdict column among the names, before the figures", g.Header, g.Labels, g.Rows)
	}
	if notes := Notes(doc); len(notes) != 0 {
		t.Errorf("notes %q; want none for a failing step's expected drops", notes)
	}
}

// pgReps is a variant's repetitions with these tps, in a run of count
// transactions each.
func pgReps(target string, client string, tps ...float64) []result.Run {
	var out []result.Run
	for i, v := range tps {
		r := pgRun(target, v)
		r.Repeat, r.Workers = i+1, 8
		r.Params["client"] = client
		out = append(out, r)
	}
	return out
}

// With repetitions, pg prints no pgbench block per run but one table of
// the variants, each its repetitions pooled with their interval; a sweep of
// -c is one table with the clients as a column. (The ±: t(4)=2.776 ×
// sd 707 / √5 = 878, 3.5% of 25,000; t(1)=12.71 × 70.7/√2 = 635, 12.6% of 5,050.)
func TestPGRepeatedAndSwept(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		runs     []result.Run
		wantRows []string // each a row's target, clients and tps cells
	}{
		{"two drivers, five repetitions each",
			append(pgReps("h:5432/pgx", "8", 25000, 24000, 26000, 25000, 25000), pgReps("h:5432/pq", "8", 20000, 21000, 19000, 20000, 20000)...),
			[]string{"h:5432/pgx 8 25000.0 ±4%", "h:5432/pq 8 20000.0 ±4%"}},
		{"a sweep of -c: one row per value",
			append(append(pgReps("h:5432/pgx", "1", 5000, 5100), pgReps("h:5432/pgx", "4", 15000, 15100)...), pgReps("h:5432/pgx", "8", 25000, 25100)...),
			[]string{"h:5432/pgx 1 5050.0 ±13%", "h:5432/pgx 4 15050.0 ±4%", "h:5432/pgx 8 25050.0 ±3%"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := pgTables(&b, tt.runs); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.String(), "transaction type:") {
				t.Errorf("a pgbench block per repetition:\n%s", b.String())
			}
			g := runsGrid(tt.runs, pgGrid)
			col := func(h string) int {
				for i, x := range g.Header {
					if x == h {
						return i
					}
				}
				t.Fatalf("no column %q in %q", h, g.Header)
				return -1
			}
			var got []string
			for _, r := range g.Rows {
				got = append(got, strings.Join([]string{r[0], r[col("clients")], r[col("tps")]}, " "))
			}
			if strings.Join(got, "|") != strings.Join(tt.wantRows, "|") {
				t.Errorf("rows %q, want %q\n%s", got, tt.wantRows, b.String())
			}
		})
	}
}

// With repetitions, -L's count of late transactions is a column of the
// table (the pgbench block that says it is not printed): the repetitions'
// counts added, over all their transactions; a variant without -L shows
// none.
func TestPGGridLate(t *testing.T) {
	t.Parallel()
	late := pgReps("h:5432/pgx", "8", 1000, 1000) // 10,000 transactions each
	for i, n := range []float64{30, 70} {
		late[i].Params[result.SettingLatencyLimit] = "5"
		late[i].Extra["late_ops"] = n
	}
	tests := []struct {
		name string
		runs []result.Run
		want []string // the late cells; nil: no late column
	}{
		{"-L 5: 100 of 20,000 late", late, []string{"100 > 5.0ms (0.500%)"}},
		{"no -L: no column", pgReps("h:5432/pgx", "8", 1000, 1000), nil},
		{"-L beside a variant without", append(slices.Clone(late), pgReps("h:5432/pq", "8", 1000, 1000)...), []string{"100 > 5.0ms (0.500%)", "-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := runsGrid(tt.runs, pgGrid)
			i := slices.Index(g.Header, "late")
			var got []string
			for _, r := range g.Rows {
				if i >= 0 {
					got = append(got, r[i])
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("late cells %q, want %q (header %q)", got, tt.want, g.Header)
			}
		})
	}
}
