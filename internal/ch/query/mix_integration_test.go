package query_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/query/clients"
	"github.com/dbmeter/dbmeter/internal/load"
)

// TestMixOnLegacyServer runs a query file against 18.16 through
// clickhouse-go v1, open loop at a rate: one run for the mix, then one per
// query over the same window, whose counts add up to the mix's and follow
// the weights, each with its own latency; the same seed asks the same
// sequence of queries.
func TestMixOnLegacyServer(t *testing.T) {
	d := legacyDSN(t)
	mix, err := query.ParseMix(strings.NewReader(`# a hot point query and a colder scan
3 SELECT count() FROM numbers(1000)
1 SELECT sum(number) FROM numbers(2000000)
`))
	if err != nil {
		t.Fatal(err)
	}
	cl, _ := clients.Lookup("clickhouse-go-v1")
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = 100, 2*time.Second, 0, 0
	c := query.Config{
		DSN: d, Clients: []query.Named{{Name: "clickhouse-go-v1", Client: cl}}, Mix: mix,
		Decodes: []query.Decode{query.Row}, Data: query.DefaultDataset(), Load: cfg, Repeat: 1,
		Params: map[string]string{}, NoServerStats: true,
	}
	runs, p := execute(t, c)
	if len(runs) != 3 || len(p.Plan.Steps) != 1 || strings.Join(p.Plan.Steps[0].Ops, ",") != "q1,q2" {
		t.Fatalf("%d runs, steps %+v; want the mix and q1, q2", len(runs), p.Plan.Steps)
	}
	m, q1, q2 := runs[0], runs[1], runs[2]
	if m.Workload != query.MixName || q1.Workload != "q1" || q2.Workload != "q2" {
		t.Errorf("workloads %q %q %q, want mix q1 q2", m.Workload, q1.Workload, q2.Workload)
	}
	if m.Mode != "open" || m.Ops < 150 || m.Errors != 0 || q1.Ops+q2.Ops != m.Ops {
		t.Errorf("mix %s: %d ops, %d errors; q1 %d + q2 %d: want about 200 at 100/s, every one in one query's run",
			m.Mode, m.Ops, m.Errors, q1.Ops, q2.Ops)
	}
	if q1.Ops < 2*q2.Ops {
		t.Errorf("weights 3:1 drew q1 %d, q2 %d", q1.Ops, q2.Ops)
	}
	if q1.Params["query"] != mix[0].SQL || q2.Params["query_weight"] != "1" || q1.Rate != 75 {
		t.Errorf("q1 params %v rate %g, q2 params %v: want each query's text, weight and share of the rate", q1.Params, q1.Rate, q2.Params)
	}
	// The scan reads 2,000,000 numbers, the point query 1,000: their
	// latencies are told apart, and the mix's lies between.
	if q1.Latency.P50 <= 0 || q2.Latency.P50 <= q1.Latency.P50 || m.Latency.Mean < q1.Latency.Mean || m.Latency.Mean > q2.Latency.Mean {
		t.Errorf("p50 q1 %d q2 %d, mean q1 %.0f mix %.0f q2 %.0f ns: want q2 slower and the mix between",
			q1.Latency.P50, q2.Latency.P50, q1.Latency.Mean, m.Latency.Mean, q2.Latency.Mean)
	}
}
