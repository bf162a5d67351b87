package clients

import (
	"context"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/load"
)

// TestDroppedConnections runs the modern query paths, closed loop, through
// a loopback proxy that, 2 s into the run, closes every connection and
// each new one mid-handshake for 2 s, refuses connections for 2 s, then
// forwards again to 18.16. v2 speaks enough of 18.16's protocol for this
// query, so its paths must query again after the gap; ch-go's hello is
// refused by 18.16, so for it dialing again after the gap (and meeting the
// server's refusal) is the proof. Every path records connection errors
// (none of kind other) and backs off.
func TestDroppedConnections(t *testing.T) {
	srv := legacyServer(t)
	for _, tc := range []struct {
		client string
		served bool
	}{
		{"clickhouse-go", true},
		{"clickhouse-go-sql", true},
		{"ch-go", false},
	} {
		t.Run(tc.client, func(t *testing.T) {
			dropCycle(t, srv.dsn, tc.client, "SELECT number FROM system.numbers LIMIT 100", tc.served, 2*time.Second)
		})
	}
}

// dropCycle runs client, closed loop, through a proxy in front of dsn's
// server that takes it away in steps of step (chtest.Proxy.Outage), and
// checks how the path lived through it, running text; served says the
// server answers the path's query.
func dropCycle(t *testing.T, dsn ch.DSN, client, text string, served bool, step time.Duration) {
	t.Helper()
	ctx := context.Background()
	proxy := chtest.NewProxy(t, dsn.Addr)
	d := dsn
	d.Addr = proxy.Addr()
	c, err := Lookup(client)
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.Open(ctx, query.Options{DSN: d, Protocol: query.Native, Decode: query.Row, Pool: query.DefaultPool()})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	wl := query.NewWorkload(q, query.CustomSpec(text, nil), false)
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.Phases = 2, 4*step+time.Second, 0, step/2, query.Phases
	outage := proxy.Outage(t, step)
	var ticks chtest.Ticks
	res, err := load.Run(ctx, cfg, wl.Ops(), wl.NewWorker, &ticks)
	cyc := <-outage
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats(0)
	opsAfter := ticks.OpsAfter(cyc.Back, cfg.Interval)
	t.Logf("%s: errors %v, ops %d (%d after the gap), dials while dropping %d, after %d",
		client, st.ErrorKinds, st.Ops, opsAfter, cyc.DropAccepts, proxy.Accepts()-cyc.ForwardAccepts)
	if served && st.Errors > 5000 {
		t.Errorf("%d errors: the workers did not back off", st.Errors)
	}
	cyc.Check(t, proxy, st.ErrorKinds, opsAfter, served)
}

// TestDroppedConnectionsStandIn is the same outage cycle with the protocol
// stand-in behind the proxy: a server every modern path can query, ch-go
// included, so each must query again after the gap.
func TestDroppedConnectionsStandIn(t *testing.T) {
	srv := dataStandIn(t, false)
	data := query.DefaultDataset()
	d, err := ch.ParseDSN("clickhouse://" + srv.Addr() + "/default")
	if err != nil {
		t.Fatal(err)
	}
	for _, client := range []string{"clickhouse-go", "clickhouse-go-sql", "ch-go"} {
		t.Run(client, func(t *testing.T) {
			dropCycle(t, d, client, "SELECT id, name, score FROM "+data.Database+".users LIMIT 100", true, time.Second)
		})
	}
}
