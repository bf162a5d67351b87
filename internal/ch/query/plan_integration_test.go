package query_test

import (
	"os"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/query/clients"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// sink collects a plan's runs.
type sink struct{ runs []result.Run }

func (s *sink) Watcher(string, string, string, ...string) load.Watcher { return nil }
func (s *sink) AddCapacity(result.Capacity)                            {}
func (s *sink) Add(runs ...result.Run)                                 { s.runs = append(s.runs, runs...) }

// TestPlanOnLegacyServer runs a query plan without the CLI against 18.16:
// every combination × repetition gives one run with its knobs, seed and
// decode phase, the repetitions interleaved: all four combinations once,
// then all again.
func TestPlanOnLegacyServer(t *testing.T) {
	d := legacyDSN(t)
	var named []query.Named
	for _, n := range []string{"clickhouse-go-v1", "http", "ch-go"} {
		c, _ := clients.Lookup(n)
		named = append(named, query.Named{Name: n, Client: c})
	}
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = 50, time.Second, 0, 0
	c := query.Config{
		DSN: d, HTTPURL: os.Getenv("DBMETER_CLICKHOUSE_HTTP_URL"), Clients: named,
		SQL: "SELECT number FROM system.numbers WHERE number < ? LIMIT 10", Args: []string{"100"},
		Decodes: []query.Decode{query.Row, query.Column}, Matrix: true, Data: query.DefaultDataset(),
		Load: cfg, Repeat: 2, Params: map[string]string{"note": "family test"},
	}
	runs, p := execute(t, c)
	// ch-go is left out on 18.16; 2 clients × 2 decodes × 2 repetitions.
	if len(runs) != 8 || len(p.Notes) != 1 {
		t.Fatalf("%d runs, notes %q; want 8 runs and ch-go left out", len(runs), p.Notes)
	}
	for i, r := range runs {
		wantSeed := uint64(1 + i/4)
		if r.Family != "ch" || r.Ops == 0 || r.Errors != 0 || r.Seed != wantSeed || r.Repeat != 1+i/4 ||
			r.Phases["decode"].Count != r.Ops || r.Params["note"] != "family test" || r.Params["decode"] == "" {
			t.Errorf("run %d: %s/%s family %q ops %d errors %v seed %d repeat %d decode count %d params %v",
				i, r.Target, r.Workload, r.Family, r.Ops, r.ErrorKinds, r.Seed, r.Repeat, r.Phases["decode"].Count, r.Params)
		}
		if wantURL := map[bool]string{true: c.HTTPURL}[r.Target == "http"]; r.Params["http_url"] != wantURL {
			t.Errorf("run %d (%s) records http-url %q, want %q", i, r.Target, r.Params["http_url"], wantURL)
		}
	}
}
