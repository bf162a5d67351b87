package insert

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
)

// pythonCompresses says whether clickhouse-driver's lz4 extra (lz4 and
// clickhouse-cityhash) is importable by the interpreter the worker runs.
func pythonCompresses(t *testing.T) bool {
	t.Helper()
	argv, err := ch.ClickHouseDriver.Argv(t.TempDir(), "", os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return runs(argv[0], "-c", "import lz4, clickhouse_cityhash")
}

// TestExternalCompression: with compress=lz4 in the DSN, each reference
// worker compresses its blocks (seed 002's author ran SeasClick so): the
// stand-in sees every INSERT compressed and without it none, ClickHouse
// 18.16 takes every row, and the run records compress as a setting of
// what it measured. clickhouse-driver without its lz4 extra says in one
// line which packages to install. A user's worker, which declares no
// compression, is refused it.
func TestExternalCompression(t *testing.T) {
	legacy := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
	version := versionOf(t, legacy)
	a := openAdmin(t, legacy)
	db := scratchDB(t, a)
	for _, name := range externalClients {
		for _, compress := range []string{"", "lz4"} {
			t.Run(name+"/compress="+compress, func(t *testing.T) {
				needWorker(t, name)
				missing := compress != "" && name == "python-clickhouse-driver" && !pythonCompresses(t)
				srv, sd := startStandIn(t, false, compress)
				ld := legacy
				ld.Compress = compress
				for _, server := range []struct {
					d       ch.DSN
					v       ch.Version
					db      string
					standin bool
				}{{sd, versionOf(t, sd), DefaultDatabase, true}, {ld, version, db, false}} {
					cfg := load.DefaultConfig()
					cfg.Workers, cfg.Warmup, cfg.Interval = 1, 0, 0
					c := Config{DSN: server.d, Clients: []string{name}, Table: Table{Database: server.db, Name: "numbers_" + strings.ReplaceAll(name, "-", "_") + compress},
						Schema: NumbersTable, Create: true, Batch: 1000, Rows: 3000, BlocksPerInsert: 1, NoDelay: true, Load: cfg, Getenv: os.Getenv}
					if missing {
						err := prepareErr(t, c, server.v)
						if err == nil || !strings.Contains(err.Error(), "clickhouse-cityhash") || !strings.Contains(err.Error(), "pip install") {
							t.Errorf("clickhouse-driver without its lz4 extra: %v, want one line naming the packages", err)
						}
						return
					}
					r := runOne(t, c, server.v)
					if r.Errors != 0 || r.Rows != 3000 || r.Extra["rows_counted"] != 3000 {
						t.Errorf("standin %t: errors %d %v, rows %d, counted %v; want none and 3000", server.standin, r.Errors, r.ErrorSamples, r.Rows, r.Extra["rows_counted"])
					}
					if r.Params["compress"] != compress {
						t.Errorf("params compress = %q, want %q", r.Params["compress"], compress)
					}
				}
				var inserts int
				for _, e := range srv.Log().Entries() {
					if e.Acked {
						inserts++
						if e.Compressed != (compress != "") {
							t.Errorf("INSERT compressed %t, want %t: %s", e.Compressed, compress != "", e.Query)
						}
					}
				}
				if inserts < 3 {
					t.Errorf("the stand-in logged %d acknowledged INSERTs, want 3", inserts)
				}
			})
		}
	}
	t.Run("user's worker", func(t *testing.T) {
		d := legacy
		d.Compress = "lz4"
		if err := d.Check("worker", registered("worker").DSN); err == nil || !strings.Contains(err.Error(), "compress=lz4") {
			t.Errorf("a user's worker with compress=lz4: %v, want it refused by name", err)
		}
	})
}

// runs says whether the command exits 0.
func runs(name string, args ...string) bool { return exec.Command(name, args...).Run() == nil }

// prepareErr is the error of preparing c and running its first step.
func prepareErr(t *testing.T, c Config, version ch.Version) error {
	t.Helper()
	ctx := context.Background()
	p, err := Prepare(ctx, "ch", c, version)
	if err != nil {
		return err
	}
	defer p.Close()
	_, err = p.Plan.Steps[0].Run(ctx, plan.Rep{N: 1, Seed: 1})
	return err
}
