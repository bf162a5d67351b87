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
				if c, _ := Lookup(tc.client); c.External {
					needWorker(t, tc.client)
				}
				// The outage begins a second after the first queries;
				// the run ends once queries come back, 5 s after the
				// server is back at the latest.
				outageRun(t, func(w *chtest.Ticks) (context.Context, func() time.Time) {
					return chtest.Around(t, w, script, how, time.Second, 3*time.Second, 5*time.Second)
				}, query.Options{DSN: srv.dsn, HTTPURL: srv.httpURL, Protocol: tc.protocol}, tc.client, "SELECT number FROM system.numbers LIMIT 100")
			})
		}
	}
}

// outageRun opens client (an external one's workers start here, before
// the outage is timed), starts the outage (chtest.Around: a context that
// ends after it, and a wait for the restart), runs the client closed loop
// with text until the context ends, and checks how the path lived through
// it.
func outageRun(t *testing.T, outage func(*chtest.Ticks) (context.Context, func() time.Time), o query.Options, client, text string) {
	t.Helper()
	c, err := Lookup(client)
	if err != nil {
		t.Fatal(err)
	}
	o.Decode, o.Pool = query.Row, query.DefaultPool()
	o.Worker = query.Worker{Getenv: os.Getenv, Timeout: 20 * time.Second}
	// Queries carry ids and ask to be logged, as ch query's measured ones
	// do.
	q, err := c.Open(context.Background(), o.LoggingQueries())
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	oq := &otherErrs{Querier: q}
	wl := query.NewWorkload(oq, query.CustomSpec(text, nil), false)
	wl.TagQueries("dbmeter-outage-" + client + "-" + string(o.Protocol) + "-")
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.Phases = 2, time.Minute, 0, time.Second/2, query.Phases
	began := time.Now()
	var ticks chtest.Ticks
	rctx, back := outage(&ticks)
	res, err := load.Run(rctx, cfg, wl.Ops(), wl.NewWorker, &ticks)
	restarted := back()
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats(0)
	after := ticks.OpsAfter(restarted, cfg.Interval)
	t.Logf("%s %s: server back %.1fs into the run; errors %v, ops %d (%d after the restart), decode phase count %d",
		client, o.Protocol, restarted.Sub(began).Seconds(), st.ErrorKinds, st.Ops, after, res.PhaseStats(0)["decode"].Count)
	chtest.Recovered(t, st.ErrorKinds, after, oq.first.Load())
	// Two workers backing off (1 ms doubling to 100 ms) fail at most a few
	// hundred times in a gap of seconds; spinning, they fail hundreds of
	// thousands of times.
	if st.ErrorKinds[load.KindConnection] > 2000 {
		t.Errorf("%d connection errors: the workers did not back off", st.ErrorKinds[load.KindConnection])
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
// own, a second after the first queries of a closed-loop run of every modern query path (18.16 serves
// none of them whole), native and HTTP, and starts it again on the same
// address 2 s later: each records connection errors (none of kind other)
// during the gap, backs off, and queries again after it (ch-go's pool
// retries an idle connection the dead server left).
func TestOutageStandIn(t *testing.T) {
	chtest.Gate(t)
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
			// The outage begins a second after the first queries; the
			// run ends once queries come back, 3 s after the stand-in is
			// back at the latest.
			outageRun(t, func(w *chtest.Ticks) (context.Context, func() time.Time) {
				return chtest.AroundFunc(t, w, time.Second, 3*time.Second, func() (time.Time, error) { return proc.Outage(2 * time.Second) })
			}, query.Options{DSN: d, HTTPURL: "http://" + proc.Addr(), Protocol: tc.protocol},
				tc.client, "SELECT id, name, score FROM "+query.DefaultDataset().Database+".users LIMIT 100")
		})
	}
}

// TestStandInProcess is the stand-in process of TestOutageStandIn.
func TestStandInProcess(t *testing.T) {
	chtest.ServeStandIn(t, query.DefaultDataset().Statements())
}
