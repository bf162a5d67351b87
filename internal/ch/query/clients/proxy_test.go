package clients

import (
	"context"
	"testing"
	"time"

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
	ctx := context.Background()
	for _, tc := range []struct {
		client string
		served bool
	}{
		{"clickhouse-go", true},
		{"clickhouse-go-sql", true},
		{"ch-go", false},
	} {
		t.Run(tc.client, func(t *testing.T) {
			proxy := chtest.NewProxy(t, srv.dsn.Addr)
			d := srv.dsn
			d.Addr = proxy.Addr()
			c, err := Lookup(tc.client)
			if err != nil {
				t.Fatal(err)
			}
			q, err := c.Open(ctx, query.Options{DSN: d, Protocol: query.Native, Decode: query.Row, Pool: query.DefaultPool()})
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			wl := query.NewWorkload(q, query.CustomSpec("SELECT number FROM system.numbers LIMIT 100", nil), false)
			cfg := load.DefaultConfig()
			cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.Phases = 2, 9*time.Second, 0, time.Second, query.Phases
			outage := proxy.Outage(t, 2*time.Second)
			var ticks chtest.Ticks
			res, err := load.Run(ctx, cfg, wl.Ops(), wl.NewWorker, &ticks)
			cyc := <-outage
			if err != nil {
				t.Fatal(err)
			}
			st := res.Stats(0)
			opsAfter := ticks.OpsAfter(cyc.Back, cfg.Interval)
			t.Logf("%s: errors %v, ops %d (%d after the gap), dials while dropping %d, after %d",
				tc.client, st.ErrorKinds, st.Ops, opsAfter, cyc.DropAccepts, proxy.Accepts()-cyc.ForwardAccepts)
			if st.ErrorKinds[load.KindConnection] == 0 || st.ErrorKinds[load.KindOther] > 0 {
				t.Errorf("errors by kind %v: want connection errors during the gap and none of kind other", st.ErrorKinds)
			}
			if cyc.DropAccepts < 2 {
				t.Errorf("%d dials while connections were dropped: the path did not redial", cyc.DropAccepts)
			}
			if tc.served && st.Errors > 5000 {
				t.Errorf("%d errors: the workers did not back off", st.Errors)
			}
			if !tc.served {
				if n := proxy.Accepts() - cyc.ForwardAccepts; n < 2 || st.ErrorKinds[load.KindServer] == 0 {
					t.Errorf("%d dials after the gap, errors %v: the path never reached the server again", n, st.ErrorKinds)
				}
				return
			}
			if opsAfter == 0 {
				t.Error("no query after the gap")
			}
		})
	}
}
