package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// serverTime is how a run's mean latency splits between the server's own
// execution time and the rest, from its server figures.
type serverTime struct {
	latency, server, rest float64 // ns per operation
	ok                    bool
}

func serverTimeOf(r result.Run) serverTime {
	s := r.ServerStats
	if s == nil || s.ServerNsPerOp == 0 || r.Latency.Mean == 0 {
		return serverTime{}
	}
	return serverTime{latency: r.Latency.Mean, server: s.ServerNsPerOp, rest: r.Latency.Mean - s.ServerNsPerOp, ok: true}
}

// waitShares lists a wait-event profile, largest share first.
func waitShares(w *result.WaitEvents, most int) string {
	if w == nil || w.Samples == 0 {
		return ""
	}
	keys := slices.Collect(maps.Keys(w.Shares))
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(w.Shares[b], w.Shares[a]), strings.Compare(a, b))
	})
	var parts []string
	for i, k := range keys {
		if i == most {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s %.1f%%", k, 100*w.Shares[k]))
	}
	return strings.Join(parts, "  ")
}

// blocks sums the statements' shared blocks hit and read.
func blocks(s *result.ServerStats) (hit, read int64) {
	for _, st := range s.Statements {
		hit += st.SharedBlksHit
		read += st.SharedBlksRead
	}
	return hit, read
}

// p50p99 is a histogram's p50 and p99 at a resolution (0: exact); "–"
// without one.
func p50p99(p *result.Phase, res int64) string {
	if p == nil || p.Count == 0 {
		return "–"
	}
	return atResolution(p.P50, res, nanos) + " / " + atResolution(p.P99, res, nanos)
}

// atResolution formats a duration measured at a resolution: one below it
// was logged as 0 (ClickHouse 18.16 logs whole milliseconds, truncated),
// so it is "<1.00ms", not the 1ns the histogram keeps it as.
func atResolution(ns, res int64, format func(float64) string) string {
	if res > 0 && ns < res {
		return "<" + format(float64(res))
	}
	return format(float64(ns))
}

// serverStatsGrid is the "where the time goes" table of the runs that
// have server figures, the one renderer of them in every format: a row per
// run with figures, a column per figure some run has, and the lines saying
// which figures a run could not get (one line when every run lacks the same
// ones: issue 35 had eight against ch null-server).
func serverStatsGrid(l labeler, es []entry) (Grid, bool) {
	g := Grid{
		Labels: 1,
		Title:  "where the time goes: latency against the server's own execution time",
		Header: []string{"run", "latency mean", "server execution", "server share", "the rest",
			"service p50 / p99", "server p50 / p99", "client side p50 / p99", "queries joined",
			"server read", "memory max", "server user / sys CPU", "disk read / net send",
			"statements / calls", "blocks read / hit", "commits / rollbacks", "temp", "deadlocks", "backends' wait events"},
	}
	var missing []entry
	shown := map[string]bool{}
	for _, e := range es {
		s := e.run.ServerStats
		if s == nil {
			continue
		}
		if len(s.Unavailable) > 0 {
			missing = append(missing, e)
		}
		if hasServerFigures(s) {
			g.Rows = append(g.Rows, serverStatsRow(l, e))
			shown[e.run.Family] = true
		}
	}
	g.Note = serverStatsNote(shown["pg"], shown["ch"])
	g.Lines = unavailableLines(l, missing, len(g.Rows) == 0)
	dropEmptyColumns(&g)
	return g, len(g.Rows) > 0 || len(g.Lines) > 0
}

// serverStatsNote says where the table's figures come from, for the
// servers whose runs it shows.
func serverStatsNote(pg, clickhouse bool) string {
	var parts []string
	switch {
	case !pg && !clickhouse:
		return ""
	case pg && clickhouse:
		parts = append(parts, "server execution is the statements' execution time per transaction (pg_stat_statements) over the same window, or (ClickHouse) the mean of the measured queries' durations in system.query_log")
	case pg:
		parts = append(parts, "server execution is the statements' execution time per transaction (pg_stat_statements) over the same window")
	case clickhouse:
		parts = append(parts, "server execution is the mean of the measured queries' durations in system.query_log")
	}
	parts[0] += "; the rest is outside execution: network, the client, parse and plan" + map[bool]string{true: ", and the commit after END", false: ""}[pg]
	if clickhouse {
		parts = append(parts, "ClickHouse joins each query to the server's record by query id: server p50 / p99 is the server's duration (at the log's resolution), client side the client's service time less it, per query: network, the client's queueing, encode and decode")
	}
	if pg {
		parts = append(parts, "PostgreSQL: statements and blocks from pg_stat_statements, commits, rollbacks, temp bytes and deadlocks from pg_stat_database, over the same window; wait events are the shares of the run's backends' samples")
	}
	return strings.Join(parts, ". ")
}

// serverStatsRow is one run's figures; "–" for those it has not.
func serverStatsRow(l labeler, e entry) []string {
	r, s := e.run, e.run.ServerStats
	service := "–"
	if s.LatencyNs != nil && s.LatencyNs.Count > 0 {
		service = nanos(float64(r.Service.P50)) + " / " + nanos(float64(r.Service.P99))
	}
	row := []string{l.run(e), nanos(r.Latency.Mean), "–", "–", "–", service,
		p50p99(s.LatencyNs, s.ResolutionNs), p50p99(s.ClientSideNs, 0), "–", "–", "–", "–", "–",
		"–", "–", "–", "–", "–", waitShares(s.WaitEvents, 3)}
	if t := serverTimeOf(*r); t.ok {
		row[2], row[3], row[4] = nanos(t.server), fmt.Sprintf("%.0f%%", pct(t.server, t.latency)), nanos(t.rest)
	}
	if l := s.LatencyNs; l != nil && l.Count > 0 {
		row[8] = Count(float64(l.Count))
	}
	if s.ReadRows > 0 || s.ReadBytes > 0 {
		row[9] = Count(float64(s.ReadRows)) + " rows, " + Bytes(float64(s.ReadBytes))
	}
	if s.MemoryMaxBytes > 0 {
		row[10] = Bytes(float64(s.MemoryMaxBytes))
	}
	if e := s.ProfileEvents; e["RealTimeMicroseconds"] > 0 {
		us := func(k string) string { return nanos(1e3 * float64(e[k])) }
		row[11] = us("UserTimeMicroseconds") + " / " + us("SystemTimeMicroseconds")
		row[12] = us("DiskReadElapsedMicroseconds") + " / " + us("NetworkSendElapsedMicroseconds")
	}
	pgStatsCells(row[13:18], s)
	if row[18] == "" {
		row[18] = "–"
	}
	return row
}

// pgStatsCells fills PostgreSQL's cells: statements / calls, blocks read /
// hit, commits / rollbacks, temp bytes and deadlocks.
func pgStatsCells(cells []string, s *result.ServerStats) {
	if len(s.Statements) > 0 {
		var calls int64
		for _, st := range s.Statements {
			calls += st.Calls
		}
		cells[0] = strconv.Itoa(len(s.Statements)) + " / " + Count(float64(calls))
	}
	if hit, read := blocks(s); hit+read > 0 {
		cells[1] = Count(float64(read)) + " / " + Count(float64(hit))
	}
	if d := s.Database; d != nil {
		cells[2] = Count(d["xact_commit"]) + " / " + Count(d["xact_rollback"])
		cells[3], cells[4] = Bytes(d["temp_bytes"]), Count(d["deadlocks"])
	}
}

// hasServerFigures says whether s holds any figure, not only the lines
// saying why it could not get them.
func hasServerFigures(s *result.ServerStats) bool {
	bare := *s
	bare.Unavailable = nil
	return !reflect.ValueOf(bare).IsZero()
}

// unavailableLines say which figures each run of es could not get: one
// line for all of them when there are several, none has figures (noRows)
// and they give the same reasons, else a line per run.
func unavailableLines(l labeler, es []entry, noRows bool) []string {
	if len(es) == 0 {
		return nil
	}
	same := noRows && len(es) > 1
	for _, e := range es[1:] {
		same = same && slices.Equal(e.run.ServerStats.Unavailable, es[0].run.ServerStats.Unavailable)
	}
	if same {
		return []string{"for every run: " + strings.Join(es[0].run.ServerStats.Unavailable, "; ")}
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = l.run(e) + ": " + strings.Join(e.run.ServerStats.Unavailable, "; ")
	}
	return out
}

// dropEmptyColumns removes the figure columns no row has a value in: a
// PostgreSQL run has no query log, a ClickHouse run no wait events.
func dropEmptyColumns(g *Grid) {
	if len(g.Rows) == 0 {
		g.Header, g.Note = nil, "" // lines only
		return
	}
	keep := make([]bool, len(g.Header))
	for i := range keep {
		keep[i] = i < g.Labels
		for _, r := range g.Rows {
			keep[i] = keep[i] || r[i] != "–"
		}
	}
	pick := func(cells []string) []string {
		var out []string
		for i, c := range cells {
			if keep[i] {
				out = append(out, c)
			}
		}
		return out
	}
	g.Header = pick(g.Header)
	for i, r := range g.Rows {
		g.Rows[i] = pick(r)
	}
}

// waitEventsChart draws each run's wait-event profile as one stacked bar of
// shares: what the run's backends were doing when sampled. Nil when no run
// has a profile.
func waitEventsChart(id string, l labeler, col colors, es []entry) *Chart {
	var runs []string
	var events []string
	for _, e := range es {
		if w := e.run.ServerStats; w != nil && w.WaitEvents != nil && w.WaitEvents.Samples > 0 {
			runs = append(runs, l.run(e))
			for k := range w.WaitEvents.Shares {
				if !slices.Contains(events, k) {
					events = append(events, k)
				}
			}
		}
	}
	if len(runs) == 0 {
		return nil
	}
	slices.Sort(events)
	var series []any
	for _, ev := range events {
		var data []any
		for _, e := range es {
			if w := e.run.ServerStats; w != nil && w.WaitEvents != nil && w.WaitEvents.Samples > 0 {
				data = append(data, math.Round(1000*w.WaitEvents.Shares[ev])/10)
			}
		}
		series = append(series, map[string]any{"name": ev, "type": "bar", "stack": "waits", "data": data, "color": col.of(ev)})
	}
	o := base("where the server's backends were: wait events (% of samples)")
	o["tooltip"] = map[string]any{"trigger": "axis", "axisPointer": map[string]any{"type": "shadow"}}
	o["grid"] = map[string]any{"left": 20, "right": 40, "top": 50, "bottom": 70, "containLabel": true}
	o["yAxis"] = map[string]any{"type": "category", "data": runs}
	o["xAxis"] = map[string]any{"type": "value", "name": "%", "max": 100}
	o["series"] = series
	return &Chart{ID: id, Title: o["title"].(map[string]any)["text"].(string), Option: o}
}
