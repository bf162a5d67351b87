package clients

import (
	"context"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/ch/query"
)

// TestQueryIDs: every client path in this build that can set a query id
// sends the one the context carries, with log_queries=1 when the options
// ask for the server's log, over each protocol it speaks; the stand-in
// records what arrived. The modern paths (v2, ch-go) cannot run against
// the 18.16 server the development machines have, so this is where their
// query ids are checked.
func TestQueryIDs(t *testing.T) {
	srv, d := chtest.StandIn(t)
	ctx := context.Background()
	sent := map[string]bool{}
	for _, name := range Names() {
		c, _ := Lookup(name)
		if c.External {
			continue // the worker protocol carries no query id
		}
		for _, p := range c.Protocols {
			for _, log := range []bool{false, true} {
				if log && name == "clickhouse-go-v1" {
					// The stand-in cannot read v1's old binary settings;
					// the integration test shows 18.16 logging v1's queries.
					continue
				}
				o := query.Options{DSN: d, HTTPURL: "http://" + srv.Addr(), Protocol: p, Decode: query.Row, Pool: query.DefaultPool()}
				if log {
					o = o.LoggingQueries()
				}
				q, err := c.Open(ctx, o)
				if err != nil {
					t.Fatalf("%s %s: %v", name, p, err)
				}
				id := strings.Join([]string{"dbmeter-test", name, string(p), map[bool]string{false: "nolog", true: "log"}[log]}, "-")
				sent[id] = log
				if _, err := q.Query(query.WithQueryID(ctx, id), "SELECT 1"); err != nil {
					t.Errorf("%s %s: %v", name, p, err)
				}
				q.Close()
			}
		}
	}
	got := map[string]bool{}
	for _, e := range srv.Log().Entries() {
		if _, ok := sent[e.QueryID]; !ok {
			continue
		}
		logged := e.Settings["log_queries"] == "1" || e.Settings["log_queries!"] == "1"
		got[e.QueryID] = logged
		if logged != sent[e.QueryID] {
			t.Errorf("%s: settings %v, want log_queries=1 %t", e.QueryID, e.Settings, sent[e.QueryID])
		}
	}
	for id := range sent {
		if _, ok := got[id]; !ok {
			t.Errorf("%s: no query arrived with that id", id)
		}
	}
}
