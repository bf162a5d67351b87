package report

import (
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chQueryRun is a ch query run whose queries the server's log joined:
// the server's and the client side's p50 and p99, rows read, memory and
// CPU.
func chQueryRun(target string) result.Run {
	return result.Run{Family: "ch", Target: target, Workload: "count", Mode: "open", Repeat: 1,
		Params: map[string]string{"client": target, "protocol": "http", "decode": "row"},
		Stats: result.Stats{DurationS: 5, Ops: 500, Latency: result.Latency{Mean: 2_600_000, P50: 2_500_000, P99: 6_000_000},
			Service: result.Latency{P50: 2_400_000, P99: 5_900_000}},
		ServerStats: &result.ServerStats{ResolutionNs: 1_000_000, ServerNsPerOp: 1_100_000, ReadRows: 4_000_000, ReadBytes: 64 << 20, MemoryMaxBytes: 3 << 20,
			ProfileEvents: map[string]int64{"RealTimeMicroseconds": 900_000, "UserTimeMicroseconds": 700_000, "SystemTimeMicroseconds": 100_000},
			LatencyNs:     &result.Phase{Count: 500, Latency: result.Latency{P50: 1_000_000, P99: 3_000_000}, TotalNs: 550_000_000},
			ClientSideNs:  &result.Phase{Count: 500, Latency: result.Latency{P50: 1_470_000, P99: 4_520_000}}},
	}
}

// TestCHServerStats: a ch query run's "where the time goes" row has the
// client's service time, the server's and the client side's p50 and p99,
// the queries joined, what the server read, its memory and its CPU; the
// figures no run has (pg's blocks and wait events) are no columns.
func TestCHServerStats(t *testing.T) {
	t.Parallel()
	run := chQueryRun("http")
	es := []entry{{run: &run}}
	g, ok := serverStatsGrid(newLabeler([]Source{{Name: "r.json", Doc: &result.Document{Runs: []result.Run{run}}}}, es), es)
	if !ok || len(g.Rows) != 1 {
		t.Fatalf("grid %q, %q; want one row", g.Header, g.Rows)
	}
	want := map[string]string{
		"service p50 / p99": "2.40ms / 5.90ms", "server p50 / p99": "1.00ms / 3.00ms", "client side p50 / p99": "1.47ms / 4.52ms",
		"queries joined": "500", "server read": "4,000,000 rows, 64.0MiB", "memory max": "3.00MiB", "server user / sys CPU": "700ms / 100ms",
	}
	got := map[string]string{}
	for i, h := range g.Header {
		got[h] = g.Rows[0][i]
	}
	for h, w := range want {
		if got[h] != w {
			t.Errorf("column %q = %q, want %q (header %q, row %q)", h, got[h], w, g.Header, g.Rows[0])
		}
	}
	for _, h := range []string{"blocks read / hit", "backends' wait events"} {
		if _, ok := got[h]; ok {
			t.Errorf("column %q shown though no run has it", h)
		}
	}
}

// TestCHSameTablesInEveryFormat: one renderer per table. A ch document
// with inserts (their pooled figures and marks) and queries, one of them
// with the server's figures and one without (the line saying why), shows
// the same titles, lines, rows and marks on the terminal, in Markdown and
// in HTML.
func TestCHSameTablesInEveryFormat(t *testing.T) {
	t.Parallel()
	insert := func(batch string, rep int, rows float64) result.Run {
		r := result.Run{Family: "ch", Target: "ch-go", Workload: "insert", Repeat: rep, Workers: 1,
			Params: map[string]string{"client": "ch-go", "batch": batch, "workers": "1"},
			Stats:  result.Stats{DurationS: 1, Ops: 3, Rows: int64(rows), RowsPerS: rows, OpsPerS: 3}}
		return r
	}
	noLog := chQueryRun("clickhouse-go-v1")
	noLog.ServerStats = &result.ServerStats{Unavailable: []string{"system.query_log: off in the user's profile"}}
	doc := &result.Document{Runs: []result.Run{
		insert("10000", 1, 30000), insert("100000", 1, 300000), insert("10000", 2, 33000), insert("100000", 2, 240000),
		chQueryRun("http"), noLog,
	}}
	grids := Tables([]Source{{Name: "r.json", Doc: doc}}, 0)
	var where *Grid
	for i := range grids {
		if strings.HasPrefix(grids[i].Title, "where the time goes") {
			where = &grids[i]
		}
	}
	if len(grids) != 3 || where == nil || len(where.Rows) != 1 || len(where.Lines) != 1 ||
		!strings.HasPrefix(where.Lines[0], "clickhouse-go-v1 count") || !strings.HasSuffix(where.Lines[0], ": system.query_log: off in the user's profile") {
		t.Fatalf("want the insert, query and where-the-time-goes tables, the last with a row and a line for the run without figures; got %+v", grids)
	}
	var marked bool
	for _, r := range grids[0].Rows {
		for _, c := range r {
			marked = marked || strings.ContainsAny(c, "±*†")
		}
	}
	if !marked {
		t.Fatalf("the insert table has no ± or mark to compare across formats: %q", grids[0].Rows)
	}
	sameInEveryFormat(t, doc, grids)
}

// A server duration below the log's resolution was logged as 0 ms: it
// reads as under the resolution, not as the 1ns the histogram keeps.
func TestServerTimeAtResolution(t *testing.T) {
	t.Parallel()
	tests := []struct {
		phase *result.Phase
		res   int64
		want  string
	}{
		{&result.Phase{Count: 9, Latency: result.Latency{P50: 1, P99: 2_000_000}}, 1_000_000, "<1.00ms / 2.00ms"},
		{&result.Phase{Count: 9, Latency: result.Latency{P50: 1, P99: 900}}, 0, "1ns / 900ns"},
		{nil, 1_000_000, "–"},
	}
	for _, tt := range tests {
		if got := p50p99(tt.phase, tt.res); got != tt.want {
			t.Errorf("p50p99(%+v, %d) = %q, want %q", tt.phase, tt.res, got, tt.want)
		}
	}
}

// TestCHServerStatsSaidOnce: runs against a server that keeps no figures
// (ch null-server) share one line, not one per run (issue 35: eight);
// runs with figures, or with different reasons, keep a line each.
func TestCHServerStatsSaidOnce(t *testing.T) {
	t.Parallel()
	const why = "the server's own figures: the server keeps no system.events or system.query_log (not a ClickHouse server's statistics)"
	none := func(target string, lines ...string) result.Run {
		return result.Run{Family: "ch", Target: target, Workload: "count", Repeat: 1, ServerStats: &result.ServerStats{Unavailable: lines}}
	}
	withEvents := none("v1", "system.query_log: off")
	withEvents.ServerStats.Events = map[string]int64{"Query": 10}
	tests := []struct {
		name               string
		runs               []result.Run
		notice, lines, row int // "for every run" lines, lines, rows
	}{
		{"eight clients, one reason", []result.Run{none("a", why), none("b", why), none("c", why), none("d", why), none("e", why), none("f", why), none("g", why), none("h", why)}, 1, 1, 0},
		{"different reasons", []result.Run{none("a", why), none("b", "other")}, 0, 2, 0},
		{"one run has figures", []result.Run{none("a", "system.query_log: off"), withEvents}, 0, 2, 1},
		{"one run", []result.Run{none("a", why)}, 0, 1, 0},
	}
	for _, tc := range tests {
		var b strings.Builder
		if err := Text(&b, &result.Document{Runs: tc.runs}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if n := strings.Count(out, "for every run: "); n != tc.notice {
			t.Errorf("%s: %d shared lines, want %d:\n%s", tc.name, n, tc.notice, out)
		}
		es := make([]entry, len(tc.runs))
		for i := range tc.runs {
			es[i] = entry{run: &tc.runs[i]}
		}
		g, _ := serverStatsGrid(newLabeler([]Source{{Doc: &result.Document{Runs: tc.runs}}}, es), es)
		if len(g.Lines) != tc.lines || len(g.Rows) != tc.row {
			t.Errorf("%s: %d lines and %d rows, want %d and %d: %q %q", tc.name, len(g.Lines), len(g.Rows), tc.lines, tc.row, g.Lines, g.Rows)
		}
	}
}

// TestPGServerStatsOneTable: a pg run's server figures are the same "where
// the time goes" table in every format, pgbench's summary included (no
// block of its own): statements and calls, blocks, commits and rollbacks,
// temp and deadlocks, and the wait events, without ClickHouse's columns.
func TestPGServerStatsOneTable(t *testing.T) {
	t.Parallel()
	run := result.Run{Family: "pg", Target: "127.0.0.1:5432/pgx", Workload: "tpcb-like", Repeat: 1,
		Params: map[string]string{"client": "2", "time": "2"},
		Stats:  result.Stats{DurationS: 2, Ops: 817, OpsPerS: 408.5, Latency: result.Latency{Mean: 4_912_000}},
		ServerStats: &result.ServerStats{ServerNsPerOp: 1_329_000,
			Statements: []result.Statement{{Calls: 5000, SharedBlksHit: 18000, SharedBlksRead: 200}, {Calls: 719, SharedBlksHit: 189, SharedBlksRead: 60}},
			Database:   map[string]float64{"xact_commit": 845, "xact_rollback": 1, "temp_bytes": 0, "deadlocks": 2},
			WaitEvents: &result.WaitEvents{IntervalNs: 100_000_000, Samples: 40, Shares: map[string]float64{"Client:ClientRead": 0.45, "CPU": 0.55}}},
	}
	doc := &result.Document{Runs: []result.Run{run}}
	es := []entry{{run: &doc.Runs[0]}}
	g, ok := serverStatsGrid(newLabeler([]Source{{Name: "r.json", Doc: doc}}, es), es)
	if !ok || len(g.Rows) != 1 {
		t.Fatalf("grid %q %q; want one row", g.Header, g.Rows)
	}
	got := map[string]string{}
	for i, h := range g.Header {
		got[h] = g.Rows[0][i]
	}
	want := map[string]string{"server share": "27%", "statements / calls": "2 / 5,719", "blocks read / hit": "260 / 18,189",
		"commits / rollbacks": "845 / 1", "deadlocks": "2", "backends' wait events": "CPU 55.0%  Client:ClientRead 45.0%"}
	for h, w := range want {
		if got[h] != w {
			t.Errorf("column %q = %q, want %q", h, got[h], w)
		}
	}
	if _, ok := got["server p50 / p99"]; ok {
		t.Errorf("ClickHouse's columns shown for a pg run: %q", g.Header)
	}
	var b strings.Builder
	if err := Text(&b, doc); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "where the time goes"); n != 1 {
		t.Errorf("the terminal says where the time goes %d times, want once (the table):\n%s", n, b.String())
	}
	sameInEveryFormat(t, doc, []Grid{g})
}
