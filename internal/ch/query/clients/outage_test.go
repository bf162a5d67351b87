package clients

import (
	"context"
	"errors"
	"os"
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
		{"php-seasclick", query.Native},
		{"python-clickhouse-driver", query.Native},
	} {
		for _, how := range []string{chtest.Stop, chtest.Kill} {
			t.Run(tc.client+"/"+how, func(t *testing.T) {
				c, err := Lookup(tc.client)
				if err != nil {
					t.Fatal(err)
				}
				if c.External {
					needWorker(t, tc.client)
				}
				// Queries carry ids and ask to be logged, as ch query's
				// measured ones do.
				o := query.Options{DSN: srv.dsn, HTTPURL: srv.httpURL, Protocol: tc.protocol, Decode: query.Row, Pool: query.DefaultPool(),
					Worker: query.Worker{Getenv: os.Getenv, Timeout: 20 * time.Second}}
				q, err := c.Open(ctx, o.LoggingQueries())
				if err != nil {
					t.Fatal(err)
				}
				defer q.Close()
				oq := &otherErrs{Querier: q}
				wl := query.NewWorkload(oq, query.CustomSpec("SELECT number FROM system.numbers LIMIT 100", nil), false)
				wl.TagQueries("dbmeter-outage-" + tc.client + "-" + how + "-")
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
