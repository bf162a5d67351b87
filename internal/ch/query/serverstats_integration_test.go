package query_test

import (
	"context"
	"math"
	"os"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/query/clients"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// legacyDSN is dev-services' 18.16.
func legacyDSN(t *testing.T) ch.DSN {
	t.Helper()
	d, err := ch.ParseDSN(servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// execute prepares and runs c against the server c.DSN names.
func execute(t *testing.T, c query.Config) ([]result.Run, *query.Prepared) {
	t.Helper()
	ctx := context.Background()
	version, err := ch.ServerVersion(ctx, c.DSN)
	if err != nil {
		t.Fatal(err)
	}
	p, err := query.Prepare(ctx, "ch", c, version)
	if err != nil {
		t.Fatal(err)
	}
	var s sink
	if err := plan.Execute(ctx, p.Plan, &s); err != nil {
		t.Fatal(err)
	}
	return s.runs, p
}

// legacyRuns runs c on 18.16 through v1 and http, the paths that talk to
// it, and returns their runs.
func legacyRuns(t *testing.T, c query.Config) []result.Run {
	t.Helper()
	for _, n := range []string{"clickhouse-go-v1", "http"} {
		cl, _ := clients.Lookup(n)
		c.Clients = append(c.Clients, query.Named{Name: n, Client: cl})
	}
	c.DSN, c.HTTPURL, c.Data, c.Repeat = legacyDSN(t), os.Getenv("DBMETER_CLICKHOUSE_HTTP_URL"), query.DefaultDataset(), 1
	runs, _ := execute(t, c)
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	return runs
}

// TestServerStatsCoverTheMeasuredQueries is the done-when run,
// shorter: every measured query is found in the server's query log by
// its id, the server's p50 is within the client's, and each query has its
// client-side remainder.
func TestServerStatsCoverTheMeasuredQueries(t *testing.T) {
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = 100, 2*time.Second, 500*time.Millisecond, 0
	for _, r := range legacyRuns(t, query.Config{Preset: "count", Create: true, Load: cfg}) {
		s := r.ServerStats
		if s == nil || len(s.Unavailable) > 0 || s.LatencyNs == nil || s.ClientSideNs == nil {
			t.Fatalf("%s: server_stats %+v; want them read", r.Target, s)
		}
		if s.LatencyNs.Count != r.Ops || s.ClientSideNs.Count != r.Ops || s.NotLogged != 0 || r.Ops == 0 {
			t.Errorf("%s: server latency count %d, client side count %d, not logged %d; want each the %d measured queries",
				r.Target, s.LatencyNs.Count, s.ClientSideNs.Count, s.NotLogged, r.Ops)
		}
		if s.LatencyNs.P50 > r.Latency.P50 {
			t.Errorf("%s: server p50 %d above the client's %d", r.Target, s.LatencyNs.P50, r.Latency.P50)
		}
		if s.ResolutionNs != int64(time.Millisecond) || s.ReadRows == 0 || s.Events["Query"] == 0 || s.ProfileEvents["RealTimeMicroseconds"] == 0 {
			t.Errorf("%s: resolution %d, read rows %d, events Query %d, ProfileEvents %v", r.Target, s.ResolutionNs, s.ReadRows, s.Events["Query"], s.ProfileEvents)
		}
	}
}

// TestServerStatsJoin: each query sleeps 50 ms on the server. The server
// logs at least that for every query; the client's time less the
// server's, query by query, leaves a remainder smaller than the sleep;
// and the two parts add up to the client's service time, so each server
// duration was subtracted from its own query's time.
func TestServerStatsJoin(t *testing.T) {
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = 10, 2*time.Second, 0, 0
	for _, r := range legacyRuns(t, query.Config{SQL: "SELECT sleep(0.05)", Load: cfg}) {
		s := r.ServerStats
		if s == nil || s.LatencyNs == nil || s.ClientSideNs == nil || s.LatencyNs.Count != r.Ops || r.Ops == 0 {
			t.Fatalf("%s: server_stats %+v for %d queries", r.Target, s, r.Ops)
		}
		if s.LatencyNs.Min < int64(50*time.Millisecond)-int64(time.Millisecond) {
			t.Errorf("%s: the server logged a query of %s, below its 50 ms sleep", r.Target, time.Duration(s.LatencyNs.Min))
		}
		if s.ClientSideNegative != 0 || s.ClientSideNs.P50 >= int64(50*time.Millisecond) {
			t.Errorf("%s: client side p50 %s (%d negative): the remainder should be well under the 50 ms the server slept",
				r.Target, time.Duration(s.ClientSideNs.P50), s.ClientSideNegative)
		}
		service := r.Service.Mean * float64(r.Ops)
		if parts := float64(s.LatencyNs.TotalNs + s.ClientSideNs.TotalNs); math.Abs(parts-service) > 0.01*service {
			t.Errorf("%s: server %d + client side %d = %.0f ns, want the client's service time %.0f ns", r.Target, s.LatencyNs.TotalNs, s.ClientSideNs.TotalNs, parts, service)
		}
	}
}

// TestNoServerStats: with NoServerStats the run reads nothing of the
// server's and its queries carry no id.
func TestNoServerStats(t *testing.T) {
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = 50, 500*time.Millisecond, 0, 0
	for _, r := range legacyRuns(t, query.Config{SQL: "SELECT 1", NoServerStats: true, Load: cfg}) {
		if r.ServerStats != nil {
			t.Errorf("%s: server_stats %+v with NoServerStats", r.Target, r.ServerStats)
		}
	}
}

// TestServerStatsUnavailable: a server without statistics (the protocol
// stand-in keeps no system.events or query log) gets one line saying so,
// and the run is measured as before, no query failing for it.
func TestServerStatsUnavailable(t *testing.T) {
	srv, d := chtest.StandIn(t)
	cl, _ := clients.Lookup("ch-go")
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = 50, 500*time.Millisecond, 0, 0
	runs, _ := execute(t, query.Config{DSN: d, Clients: []query.Named{{Name: "ch-go", Client: cl}}, SQL: "SELECT 1", Data: query.DefaultDataset(), Load: cfg, Repeat: 1})
	r := runs[0]
	if st := r.ServerStats; st == nil || len(st.Unavailable) != 1 || st.LatencyNs != nil || st.Events != nil {
		t.Errorf("server_stats %+v; want one line saying the figures are not there, and none", st)
	}
	if r.Ops == 0 || r.Errors != 0 || srv.Log().Totals().Errors != 0 {
		t.Errorf("%d ops, %d errors, the stand-in refused %d queries; want the run measured as before", r.Ops, r.Errors, srv.Log().Totals().Errors)
	}
}
