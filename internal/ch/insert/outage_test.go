package insert

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
)

// TestOutage takes the server away for 3 s in the middle of a run of every
// path 18.16 supports, by a clean stop and by SIGKILL: each path
// records connection errors (no "other") during the gap, inserts again
// after it, and its rows reconcile: acknowledged ≤ counted ≤ acknowledged
// + uncertain. The reference workers (external clients) are among them.
func TestOutage(t *testing.T) {
	d := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
	script := chtest.Gate(t)
	ctx := context.Background()
	version := versionOf(t, d)
	a := openAdmin(t, d)
	db := scratchDB(t, a)
	for _, tc := range []struct {
		client    string
		perInsert int
	}{
		{"clickhouse-go-v1", 1},
		{"clickhouse-go-v1-column", 5}, // streamed: blocks in flight when the server goes
		{"sqlx-v1", 1},
		{"php-seasclick", 1},
		{"php-seasclick-block", 3},
		{"python-clickhouse-driver", 1},
	} {
		for _, how := range []string{chtest.Stop, chtest.Kill} {
			t.Run(tc.client+"/"+how, func(t *testing.T) {
				cl, err := Lookup(tc.client)
				if err != nil {
					t.Fatal(err)
				}
				batch, lead := 5000, 3*time.Second
				if cl.External != nil {
					needWorker(t, tc.client)
					// The outage begins once the rows are made and handed
					// over and the workers run (over 10 s seen on a busy
					// machine: a worker set up while the server is down
					// fails the run, as a Go path's first connection
					// would); a worker stuck on a dead socket is killed
					// after 5 s (WorkerTimeout) as hung.
					batch, lead = 2000, 20*time.Second
				}
				cfg := load.DefaultConfig()
				// The run ends 5 s after the server is back.
				cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval = 2, time.Minute, 0, time.Second
				c := Config{
					DSN: d, Clients: []string{tc.client}, Table: Table{Database: db, Name: "outage"}, Create: true,
					Batch: batch, BlocksPerInsert: tc.perInsert, NoDelay: true, Load: cfg, Getenv: os.Getenv, WorkerTimeout: 5 * time.Second,
				}
				p, err := Prepare(ctx, "ch", c, version)
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				began := time.Now()
				rctx, back := chtest.Around(t, script, how, lead, 3*time.Second, 5*time.Second)
				var ticks chtest.Ticks
				runs, err := p.Plan.Steps[0].Run(rctx, plan.Rep{N: 1, Seed: 1, Watch: &ticks})
				restarted := back()
				if err != nil {
					t.Fatalf("run: %v", err)
				}
				r := runs[0]
				t.Logf("server back %.1fs into the run", restarted.Sub(began).Seconds())
				after := ticks.OpsAfter(restarted, cfg.Interval)
				acked, counted, uncertain := int64(r.Extra["rows_acknowledged"]), int64(r.Extra["rows_counted"]), int64(r.Extra["rows_uncertain"])
				t.Logf("%s %s: errors %v (first of each: %q), ops %d (%d after the restart), rows acknowledged %d counted %d uncertain %d; workers started %v, failed %v; warnings %q",
					tc.client, how, r.ErrorKinds, r.ErrorSamples, r.Ops, after, acked, counted, uncertain, r.Extra["workers_started"], r.Extra["worker_failures"], r.Warnings)
				if r.ErrorKinds[load.KindConnection] == 0 || r.ErrorKinds[load.KindOther] > 0 {
					t.Errorf("errors by kind %v: want connection errors during the gap and none of kind other", r.ErrorKinds)
				}
				if after == 0 {
					t.Error("no operation after the server came back")
				}
				if _, ok := r.Extra["rows_counted"]; !ok || counted < acked || counted > acked+uncertain || r.ErrorKinds["lost_rows"]+r.ErrorKinds["extra_rows"] > 0 {
					t.Errorf("rows do not reconcile: acknowledged %d, counted %d, uncertain %d", acked, counted, uncertain)
				}
			})
		}
	}
}

// TestOutageAtEnd leaves the server down when the run ends: the final count
// cannot be taken, and the run is still returned, with the rows marked
// unverified and the reason, next to the error.
func TestOutageAtEnd(t *testing.T) {
	d := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
	script := chtest.Gate(t)
	ctx := context.Background()
	version := versionOf(t, d)
	a := openAdmin(t, d)
	db := scratchDB(t, a)
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval = 1, 4*time.Second, 0, time.Second
	c := Config{DSN: d, Clients: []string{"clickhouse-go-v1"}, Table: Table{Database: db, Name: "end"}, Create: true, Batch: 5000, BlocksPerInsert: 1, NoDelay: true, Load: cfg}
	p, err := Prepare(ctx, "ch", c, version)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	back := make(chan error, 1)
	go func() {
		time.Sleep(2 * time.Second)
		_, err := chtest.Outage(script, chtest.Kill, 10*time.Second)
		back <- err
	}()
	runs, err := p.Plan.Steps[0].Run(ctx, plan.Rep{N: 1, Seed: 1})
	if oerr := <-back; oerr != nil {
		t.Fatal(oerr)
	}
	if err == nil || len(runs) != 1 {
		t.Fatalf("got %d runs, error %v; want the run and the error of the count", len(runs), err)
	}
	r := runs[0]
	t.Logf("error %v; ops %d, errors %v, extra %v, warnings %q", err, r.Ops, r.ErrorKinds, r.Extra, r.Warnings)
	if r.Ops == 0 || r.Extra["rows_unverified"] != 1 || r.Extra["rows_acknowledged"] == 0 || len(r.Warnings) == 0 {
		t.Errorf("run %+v: want its operations, rows acknowledged, rows_unverified 1 and a warning saying why", r)
	}
	if _, ok := r.Extra["rows_counted"]; ok {
		t.Error("rows_counted recorded although the count failed")
	}
}
