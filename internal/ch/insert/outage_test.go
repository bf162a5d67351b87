package insert

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/ch/event"
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
				// The outage begins lead after the run's first inserts:
				// every worker is set up by then (one set up while the
				// server is down fails the run, as a Go path's first
				// connection would). The run ends once inserts come back
				// after it, or tail after the restart at the latest.
				batch, lead, tail := 5000, time.Second, 5*time.Second
				if cl.External != nil {
					needWorker(t, tc.client)
					// The rows are made and handed over and the worker
					// processes start (over 10 s seen on a busy machine)
					// before the first insert, which the outage waits
					// for; the two workers start side by side, a second
					// apart at most. A worker stuck on a dead socket is
					// killed after 5 s (WorkerTimeout) as hung.
					batch, lead = 2000, 3*time.Second
					// A worker that died with the server is replaced by a
					// new process, which starts and connects before it
					// inserts: 5 s after the restart was not always enough
					// (CI saw php-seasclick/kill start one replacement and
					// insert nothing in them), hence up to 15 s.
					tail = 15 * time.Second
				}
				cfg := load.DefaultConfig()
				// The run ends tail after the server is back.
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
				var ticks chtest.Ticks
				rctx, back := chtest.Around(t, &ticks, script, how, lead, 3*time.Second, tail)
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
				chtest.Recovered(t, r.ErrorKinds, after, r.ErrorSamples[load.KindOther])
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

// TestOutageStandIn SIGKILLs the protocol stand-in, in a process of its
// own, a second after the first inserts of a run of every modern path (18.16 serves none of them
// whole) and starts it again on the same address 2 s later: each path
// records connection errors (none of kind other) during the gap, backs
// off, and inserts again into the new process, which counts no more rows
// than the path acknowledged or left uncertain.
func TestOutageStandIn(t *testing.T) {
	chtest.Gate(t)
	ctx := context.Background()
	for _, tc := range []struct {
		client    string
		perInsert int
	}{
		{"clickhouse-go-row", 1},
		{"clickhouse-go-column", 4}, // streamed: blocks in flight when the server dies
		{"ch-go", 4},                // streamed
		{"database-sql", 1},
		{"sqlx", 1},
		{"gorm", 1},
	} {
		t.Run(tc.client, func(t *testing.T) {
			proc := chtest.StartStandIn(t, "TestStandInProcess")
			d, err := ch.ParseDSN("clickhouse://" + proc.Addr() + "/default")
			if err != nil {
				t.Fatal(err)
			}
			c, err := Lookup(tc.client)
			if err != nil {
				t.Fatal(err)
			}
			table := Table{Database: DefaultDatabase, Name: "event"}
			const batch = 2000
			wl := NewWorkload(c, Options{DSN: d, Batch: batch, BlocksPerInsert: tc.perInsert, NoDelay: true}, table, event.Ring(1, batch, 4), 0)
			cfg := load.DefaultConfig()
			// The outage begins a second after the first inserts; the
			// run ends once inserts come back, 3 s after the stand-in is
			// back at the latest.
			cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.Phases = 2, time.Minute, 0, time.Second/2, Phases
			var ticks chtest.Ticks
			rctx, back := chtest.AroundFunc(t, &ticks, time.Second, 3*time.Second, func() (time.Time, error) { return proc.Outage(2 * time.Second) })
			res, err := load.Run(rctx, cfg, Ops, wl.NewWorker, &ticks)
			restarted := back()
			if err != nil {
				t.Fatal(err)
			}
			st := res.Stats(0)
			after := ticks.OpsAfter(restarted, cfg.Interval)
			counted, err := openAdmin(t, d).Count(ctx, table)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: errors %v (first of each: %q), ops %d (%d after the restart), rows acknowledged %d, uncertain %d, counted after the restart %d",
				tc.client, st.ErrorKinds, res.SamplesOf(0), st.Ops, after, wl.Acked(), wl.Uncertain(), counted)
			chtest.Recovered(t, st.ErrorKinds, after, res.SamplesOf(0)[load.KindOther])
			if st.Errors > 5000 {
				t.Errorf("%d errors: the workers did not back off", st.Errors)
			}
			if counted == 0 {
				t.Error("the new process counted no row: the path did not insert again")
			}
			if counted > wl.Acked()+wl.Uncertain() {
				t.Errorf("the new process counted %d rows, more than the %d acknowledged and %d uncertain", counted, wl.Acked(), wl.Uncertain())
			}
		})
	}
}

// TestStandInProcess is the stand-in process of TestOutageStandIn.
func TestStandInProcess(t *testing.T) {
	chtest.ServeStandIn(t, []string{"CREATE DATABASE " + DefaultDatabase, CreateSQL(Table{Database: DefaultDatabase, Name: "event"}, EventTable, 0, "")})
}
