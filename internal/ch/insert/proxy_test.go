package insert

import (
	"context"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// TestDroppedConnections runs the modern paths through a loopback proxy
// that, 2 s into the run, closes every connection (mid-insert) and each new
// one mid-handshake for 2 s, then refuses connections for 2 s, then
// forwards again. ClickHouse 18.16 is behind it: the modern clients refuse
// it by policy (dbmeter's floor is 21.8), but v2 speaks enough of its
// protocol for these inserts, so the v2 paths are checked end to end: they
// record connection errors (none of kind other) during the gap, redial,
// insert again after it, and their rows reconcile. ch-go's hello is refused
// by 18.16 (UNKNOWN_SETTING), so for it reaching the server again after the
// gap (a server error) is the proof it redials.
func TestDroppedConnections(t *testing.T) {
	d := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
	a := openAdmin(t, d)
	db := scratchDB(t, a)
	for _, tc := range []struct {
		client    string
		perInsert int
		served    bool // the client can insert into 18.16
	}{
		{"clickhouse-go-row", 1, true},
		{"clickhouse-go-column", 4, true}, // streamed
		{"database-sql", 1, true},
		{"sqlx", 1, true},
		{"gorm", 1, true},
		{"ch-go", 4, false},
	} {
		t.Run(tc.client, func(t *testing.T) {
			// Each client has its own proxy and table: their cycles, 9 s
			// each, overlap (as many as go test's -parallel).
			t.Parallel()
			table := Table{Database: db, Name: "drop_" + tc.client[len(tc.client)-3:]}
			dropCycle(t, d, a, table, tc.client, tc.perInsert, tc.served, 2*time.Second)
		})
	}
}

// dropCycle runs client into table through a proxy in front of d's server
// that takes the server away in steps of step (chtest.Proxy.Outage), and
// checks how the path lived through it; served says the server answers
// the path's inserts.
func dropCycle(t *testing.T, d ch.DSN, a *Admin, table Table, client string, perInsert int, served bool, step time.Duration) {
	t.Helper()
	ctx := context.Background()
	if err := a.Prepare(ctx, table, EventTable, true, 0, ""); err != nil {
		t.Fatal(err)
	}
	proxy := chtest.NewProxy(t, d.Addr)
	pd := d
	pd.Addr = proxy.Addr()
	c, err := Lookup(client)
	if err != nil {
		t.Fatal(err)
	}
	const batch = 2000
	wl := NewWorkload(c, Options{DSN: pd, Batch: batch, BlocksPerInsert: perInsert, NoDelay: true}, table, event.Ring(1, batch, 4), 0)
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.Phases = 2, 4*step+time.Second, 0, step/2, Phases
	outage := proxy.Outage(t, step)
	var ticks chtest.Ticks
	before, err := a.Count(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	res, err := load.Run(ctx, cfg, Ops, wl.NewWorker, &ticks)
	cyc := <-outage
	if err != nil {
		t.Fatal(err)
	}
	after, err := a.Count(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Fill(result.Run{}, cfg, 0)
	Reconcile(&r, table, wl.Acked(), after-before, wl.Uncertain())
	opsAfter := ticks.OpsAfter(cyc.Back, cfg.Interval)
	t.Logf("%s: errors %v, ops %d (%d after the gap), dials while dropping %d, rows acknowledged %d counted %d uncertain %d",
		client, r.ErrorKinds, r.Ops, opsAfter, cyc.DropAccepts, wl.Acked(), after-before, wl.Uncertain())
	if r.Errors > 5000 {
		t.Errorf("%d errors: the workers did not back off", r.Errors)
	}
	cyc.Check(t, proxy, r.ErrorKinds, opsAfter, served)
	if !served {
		return
	}
	if r.ErrorKinds["lost_rows"]+r.ErrorKinds["extra_rows"] > 0 {
		t.Errorf("rows do not reconcile: %q", r.Warnings)
	}
}

// TestDroppedConnectionsStandIn is the same outage cycle with the protocol
// stand-in behind the proxy: a server every modern path can insert into,
// ch-go included, so each must insert again after the gap and its rows
// reconcile.
func TestDroppedConnectionsStandIn(t *testing.T) {
	_, d := startStandIn(t, false, "")
	a := openAdmin(t, d)
	for _, tc := range []struct {
		client    string
		perInsert int
	}{
		{"clickhouse-go-row", 1},
		{"clickhouse-go-column", 4},
		{"database-sql", 1},
		{"sqlx", 1},
		{"gorm", 1},
		{"ch-go", 4},
	} {
		t.Run(tc.client, func(t *testing.T) {
			t.Parallel() // its own proxy and table, as in TestDroppedConnections
			table := Table{Database: DefaultDatabase, Name: "drop_" + tc.client[len(tc.client)-3:]}
			dropCycle(t, d, a, table, tc.client, tc.perInsert, true, time.Second)
		})
	}
}
