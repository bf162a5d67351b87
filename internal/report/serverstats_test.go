package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// TestCHServerStats: a ch query run's "where the time goes" shows the
// server's and the client side's p50 and p99, under the terminal table
// and in the grid Markdown and HTML share.
func TestCHServerStats(t *testing.T) {
	t.Parallel()
	run := result.Run{Family: "ch", Target: "http", Workload: "count", Mode: "open", Repeat: 1,
		Params: map[string]string{"client": "http", "protocol": "http", "decode": "row"},
		Stats: result.Stats{DurationS: 5, Ops: 500, Latency: result.Latency{Mean: 2_600_000, P50: 2_500_000, P99: 6_000_000},
			Service: result.Latency{P50: 2_400_000, P99: 5_900_000}},
		ServerStats: &result.ServerStats{ResolutionNs: 1_000_000, ServerNsPerOp: 1_100_000, ReadRows: 4_000_000,
			LatencyNs:    &result.Phase{Count: 500, Latency: result.Latency{P50: 1_000_000, P99: 3_000_000}, TotalNs: 550_000_000},
			ClientSideNs: &result.Phase{Count: 500, Latency: result.Latency{P50: 1_470_000, P99: 4_520_000}}},
	}
	var b bytes.Buffer
	if err := Text(&b, &result.Document{Runs: []result.Run{run}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"server (query_log)   p50 1.000  p99 3.000 ms  (500 queries", "client side          p50 1.470  p99 4.520 ms"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	es := []entry{{run: &run}}
	g, ok := serverStatsGrid(newLabeler([]Source{{Name: "r.json", Doc: &result.Document{Runs: []result.Run{run}}}}, es), es)
	if !ok || g.Rows[0][5] != "1.00ms / 3.00ms" || g.Rows[0][6] != "1.47ms / 4.52ms" {
		t.Errorf("grid %q, %q; want the server's and the client side's p50 / p99", g.Header, g.Rows)
	}
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
// (ch null-server) share one notice, not one per run (issue 35: eight);
// runs with figures, or with different reasons, keep their own blocks.
func TestCHServerStatsSaidOnce(t *testing.T) {
	t.Parallel()
	const why = "the server's own figures: the server keeps no system.events or system.query_log (not a ClickHouse server's statistics)"
	none := func(target string, lines ...string) result.Run {
		return result.Run{Family: "ch", Target: target, Workload: "count", Repeat: 1, ServerStats: &result.ServerStats{Unavailable: lines}}
	}
	withEvents := none("v1", "system.query_log: off")
	withEvents.ServerStats.Events = map[string]int64{"Query": 10}
	tests := []struct {
		name         string
		runs         []result.Run
		notice, runN int // "for every run" lines, per-run blocks
	}{
		{"eight clients, one reason", []result.Run{none("a", why), none("b", why), none("c", why), none("d", why), none("e", why), none("f", why), none("g", why), none("h", why)}, 1, 0},
		{"different reasons", []result.Run{none("a", why), none("b", "other")}, 0, 2},
		{"one run has figures", []result.Run{none("a", "system.query_log: off"), withEvents}, 0, 2},
		{"one run", []result.Run{none("a", why)}, 0, 1},
	}
	for _, tc := range tests {
		var b strings.Builder
		chServerStatsText(&b, tc.runs)
		out := b.String()
		if n := strings.Count(out, "for every run: "); n != tc.notice {
			t.Errorf("%s: %d shared notices, want %d:\n%s", tc.name, n, tc.notice, out)
		}
		if n := strings.Count(out, "(rep 1): where the time goes"); n != tc.runN {
			t.Errorf("%s: %d per-run blocks, want %d:\n%s", tc.name, n, tc.runN, out)
		}
	}
}
