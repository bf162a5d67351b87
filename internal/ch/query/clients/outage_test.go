package clients

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/load"
)

// TestOutage takes the server away for 3 s in the middle of a closed-loop
// run of every query path 18.16 supports, by a clean stop and by SIGKILL:
// each records connection errors (none of kind other) during the gap,
// backs off rather than spinning through them, and queries again after it.
func TestOutage(t *testing.T) {
	srv := legacyServer(t)
	script := chtest.Gate(t)
	ctx := context.Background()
	for _, tc := range []struct {
		client   string
		protocol query.Protocol
	}{
		{"clickhouse-go-v1", query.Native},
		{"http", query.HTTP},
	} {
		for _, how := range []string{chtest.Stop, chtest.Kill} {
			t.Run(tc.client+"/"+how, func(t *testing.T) {
				c, err := Lookup(tc.client)
				if err != nil {
					t.Fatal(err)
				}
				q, err := c.Open(ctx, query.Options{DSN: srv.dsn, HTTPURL: srv.httpURL, Protocol: tc.protocol, Decode: query.Row, Pool: query.DefaultPool()})
				if err != nil {
					t.Fatal(err)
				}
				defer q.Close()
				oq := &otherErrs{Querier: q}
				wl := query.NewWorkload(oq, query.CustomSpec("SELECT number FROM system.numbers LIMIT 100", nil), false)
				cfg := load.DefaultConfig()
				// The run ends 5 s after the server is back.
				cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.Phases = 2, time.Minute, 0, time.Second, query.Phases
				began := time.Now()
				rctx, back := chtest.Around(t, script, how, 3*time.Second, 3*time.Second, 5*time.Second)
				var ticks chtest.Ticks
				res, err := load.Run(rctx, cfg, wl.Ops(), wl.NewWorker, &ticks)
				restarted := back()
				if err != nil {
					t.Fatal(err)
				}
				st := res.Stats(0)
				t.Logf("server back %.1fs into the run", restarted.Sub(began).Seconds())
				after := ticks.OpsAfter(restarted, cfg.Interval)
				t.Logf("%s %s: errors %v, ops %d (%d after the restart), decode phase count %d",
					tc.client, how, st.ErrorKinds, st.Ops, after, res.PhaseStats(0)["decode"].Count)
				if st.ErrorKinds[load.KindConnection] == 0 || st.ErrorKinds[load.KindOther] > 0 {
					t.Errorf("errors by kind %v: want connection errors during the gap and none of kind other (first: %v)", st.ErrorKinds, oq.first.Load())
				}
				// Two workers backing off (1 ms doubling to 100 ms) fail at
				// most a few hundred times in a gap of seconds; spinning,
				// they fail hundreds of thousands of times.
				if st.ErrorKinds[load.KindConnection] > 2000 {
					t.Errorf("%d connection errors: the workers did not back off", st.ErrorKinds[load.KindConnection])
				}
				if after == 0 {
					t.Error("no query after the server came back")
				}
			})
		}
	}
}

// otherErrs remembers the first error of kind other, to say what it was.
type otherErrs struct {
	query.Querier
	first atomic.Value
}

func (o *otherErrs) Query(ctx context.Context, text string, args ...any) (query.QueryStats, error) {
	st, err := o.Querier.Query(ctx, text, args...)
	if err != nil && !errors.Is(err, ctx.Err()) && load.Classify(ch.Mark(err)) == load.KindOther {
		o.first.CompareAndSwap(nil, err.Error())
	}
	return st, err
}

// TestOutageStandIn SIGKILLs the protocol stand-in, in a process of its
// own, 2 s into a closed-loop run of every modern query path (18.16 serves
// none of them whole), native and HTTP, and starts it again on the same
// address 2 s later: each records connection errors (none of kind other)
// during the gap, backs off, and queries again after it (ch-go's pool
// retries an idle connection the dead server left).
func TestOutageStandIn(t *testing.T) {
	chtest.Gate(t)
	ctx := context.Background()
	data := query.DefaultDataset()
	for _, tc := range []struct {
		client   string
		protocol query.Protocol
	}{
		{"ch-go", query.Native},
		{"clickhouse-go", query.Native},
		{"clickhouse-go-sql", query.Native},
		{"clickhouse-go", query.HTTP},
		{"clickhouse-go-sql", query.HTTP},
	} {
		t.Run(tc.client+"/"+string(tc.protocol), func(t *testing.T) {
			proc := chtest.StartStandIn(t, "TestStandInProcess")
			d, err := ch.ParseDSN("clickhouse://" + proc.Addr() + "/default")
			if err != nil {
				t.Fatal(err)
			}
			c, err := Lookup(tc.client)
			if err != nil {
				t.Fatal(err)
			}
			q, err := c.Open(ctx, query.Options{DSN: d, HTTPURL: "http://" + proc.Addr(), Protocol: tc.protocol, Decode: query.Row, Pool: query.DefaultPool()})
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			oq := &otherErrs{Querier: q}
			wl := query.NewWorkload(oq, query.CustomSpec("SELECT id, name, score FROM "+data.Database+".users LIMIT 100", nil), false)
			cfg := load.DefaultConfig()
			// The run ends 3 s after the stand-in is back.
			cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.Phases = 2, time.Minute, 0, time.Second/2, query.Phases
			rctx, back := chtest.AroundFunc(t, 2*time.Second, 3*time.Second, func() (time.Time, error) { return proc.Outage(2 * time.Second) })
			var ticks chtest.Ticks
			res, err := load.Run(rctx, cfg, wl.Ops(), wl.NewWorker, &ticks)
			restarted := back()
			if err != nil {
				t.Fatal(err)
			}
			st := res.Stats(0)
			after := ticks.OpsAfter(restarted, cfg.Interval)
			t.Logf("%s %s: errors %v, ops %d (%d after the restart)", tc.client, tc.protocol, st.ErrorKinds, st.Ops, after)
			if st.ErrorKinds[load.KindConnection] == 0 || st.ErrorKinds[load.KindOther] > 0 {
				t.Errorf("errors by kind %v: want connection errors during the gap and none of kind other (first: %v)", st.ErrorKinds, oq.first.Load())
			}
			if st.ErrorKinds[load.KindConnection] > 2000 {
				t.Errorf("%d connection errors: the workers did not back off", st.ErrorKinds[load.KindConnection])
			}
			if after == 0 {
				t.Error("no query after the stand-in came back")
			}
		})
	}
}

// TestStandInProcess is the stand-in process of TestOutageStandIn.
func TestStandInProcess(t *testing.T) {
	chtest.ServeStandIn(t, query.DefaultDataset().Statements())
}
