package insert

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
)

// externalClients are the reference workers; under DBMETER_E2E=1 (make
// test, whose deps.sh installs PHP, SeasClick and clickhouse-driver) each
// must be able to run, otherwise a missing one skips its test.
var externalClients = []string{"php-seasclick", "php-seasclick-block", "python-clickhouse-driver"}

// needWorker skips (or, under DBMETER_E2E=1, fails) t when the client's
// language or library is missing.
func needWorker(t *testing.T, name string) {
	t.Helper()
	cl, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	chtest.NeedWorker(t, name, *cl.External)
}

// TestExternalClients inserts through every reference worker, into each
// table shape: the rows handed over before the run (the last block short)
// all land, the run
// says which worker ran, with its own timing as the phase "client" and
// the protocol's round trip.
func TestExternalClients(t *testing.T) {
	d := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
	version := versionOf(t, d)
	a := openAdmin(t, d)
	db := scratchDB(t, a)
	// /proc counts a live worker's CPU in 10 ms ticks, and one client's
	// 5,500 event rows take a few ticks of it: any one run may read 0, so
	// the event runs of every client together must show some.
	var eventWorkersCPU float64
	defer func() {
		if !t.Failed() && !t.Skipped() && eventWorkersCPU <= 0 {
			t.Errorf("the workers' CPU over every client's %s runs is %v s: want it counted", EventTable.Name, eventWorkersCPU)
		}
	}()
	for _, name := range externalClients {
		for _, shape := range Schemas {
			t.Run(name+"/"+shape.Name, func(t *testing.T) {
				needWorker(t, name)
				cfg := load.DefaultConfig()
				cfg.Workers, cfg.Warmup, cfg.Interval = 2, 0, 0
				c := Config{DSN: d, Clients: []string{name}, Table: Table{Database: db, Name: "ext_" + shape.Name + "_" + strings.ReplaceAll(name, "-", "_")},
					Schema: shape, Create: true, Batch: 1000, Rows: 5500, BlocksPerInsert: 2, NoDelay: true, Load: cfg, Getenv: os.Getenv}
				r := runOne(t, c, version)
				t.Logf("%s: ops %d rows %d errors %v extra %v external %+v warnings %q", name, r.Ops, r.Rows, r.ErrorKinds, r.Extra, r.External, r.Warnings)
				if r.Errors != 0 || r.Rows != 5500 || r.Extra["rows_counted"] != 5500 || r.Extra["rows_acknowledged"] != 5500 {
					t.Errorf("errors %d %v, rows %d, counted %v, acknowledged %v; want no errors and 5500 rows each", r.Errors, r.ErrorSamples, r.Rows, r.Extra["rows_counted"], r.Extra["rows_acknowledged"])
				}
				if r.Extra["worker_start_ms"] <= 0 {
					t.Errorf("worker_start_ms %v: the workers' start-up was not timed", r.Extra["worker_start_ms"])
				}
				x := r.External
				if x == nil || x.Language == "" || x.Runtime == "" || x.Library == "" || x.RTT.P50 <= 0 || x.RTT.P99 < x.RTT.P50 {
					t.Errorf("external_client = %+v", x)
				}
				if ph := r.Phases[extworker.Client]; ph.Count != r.Ops || ph.P50 <= 0 || ph.P50 > r.Latency.P50 {
					t.Errorf("phase client = %+v over %d operations of p50 %d: want each counted, within the latency", ph, r.Ops, r.Latency.P50)
				}
				// The workers' CPU is the client's: counted beside
				// dbmeter's, and in cpu per row.
				if shape.Name == EventTable.Name {
					eventWorkersCPU += r.Client.WorkersCPUS
				}
				if _, ok := r.Extra["workers_cpu_us_per_row"]; !ok || r.Extra["client_cpu_us_per_row"] < r.Extra["workers_cpu_us_per_row"] {
					t.Errorf("workers cpu %v s, %v µs/row of %v µs/row: want the workers' CPU counted in the client's", r.Client.WorkersCPUS, r.Extra["workers_cpu_us_per_row"], r.Extra["client_cpu_us_per_row"])
				}
				if strings.Contains(x.Command, d.Password) {
					t.Error("the command shows the password")
				}
			})
		}
	}
}

// TestExternalWorkerDies runs the PHP worker behind a pipe that closes
// after a few operations: each time the worker exits mid-run, one
// operation fails as a lost connection saying so, a new worker is started,
// the operations after it succeed, and the rows reconcile.
func TestExternalWorkerDies(t *testing.T) {
	d := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
	needWorker(t, "php-seasclick")
	version := versionOf(t, d)
	a := openAdmin(t, d)
	db := scratchDB(t, a)
	script := t.TempDir()
	cl, _ := Lookup("php-seasclick")
	argv, err := cl.External.Argv(script, "", os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	// setup, the pings before the run, then 3 inserts: sed quits, stdin ends and PHP
	// exits at its next read.
	worker := "sh " + script + "/dies.sh"
	if err := os.WriteFile(script+"/dies.sh", []byte("sed -u 504q | "+strings.Join(argv, " ")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Warmup, cfg.Interval, cfg.Count, cfg.Duration = 1, 0, 0, 12, 0
	c := Config{DSN: d, Clients: []string{"worker"}, WorkerCmd: worker, Table: Table{Database: db, Name: "dies"},
		Create: true, Batch: 100, BlocksPerInsert: 1, NoDelay: true, Load: cfg, Getenv: os.Getenv}
	r := runOne(t, c, version)
	t.Logf("ops %d errors %v samples %q extra %v", r.Ops, r.ErrorKinds, r.ErrorSamples, r.Extra)
	if r.ErrorKinds[load.KindConnection] == 0 || !strings.Contains(r.ErrorSamples[load.KindConnection], "exited") {
		t.Errorf("errors %v %q: want connection errors saying the worker exited", r.ErrorKinds, r.ErrorSamples)
	}
	if r.Ops < 4 || r.Extra["workers_started"] < 2 || r.Extra["worker_failures"] < 1 {
		t.Errorf("ops %d, workers started %v, failures %v: want operations after a restarted worker", r.Ops, r.Extra["workers_started"], r.Extra["worker_failures"])
	}
	if acked, counted, unc := r.Extra["rows_acknowledged"], r.Extra["rows_counted"], r.Extra["rows_uncertain"]; counted < acked || counted > acked+unc || acked != float64(100*r.Ops) {
		t.Errorf("rows acknowledged %v, counted %v, uncertain %v over %d operations", acked, counted, unc, r.Ops)
	}
}

// runOne prepares c against the server of version and returns the run of
// its first step, which must succeed.
func runOne(t *testing.T, c Config, version ch.Version) result.Run {
	t.Helper()
	ctx := context.Background()
	p, err := Prepare(ctx, "ch", c, version)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	runs, err := p.Plan.Steps[0].Run(ctx, plan.Rep{N: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return runs[0]
}
