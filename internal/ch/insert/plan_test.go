package insert

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/usage"
)

func validConfig() Config {
	cfg := load.DefaultConfig()
	cfg.Warmup = 0
	return Config{
		DSN: ch.DSN{Addr: "127.0.0.1:9000"}, Table: Table{Database: "dbmeter", Name: "event"},
		Batch: 1000, BlocksPerInsert: 1, NoDelay: true, Load: cfg,
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c *Config)
		want string // "" : valid
	}{
		{"defaults", func(*Config) {}, ""},
		{"zero batch", func(c *Config) { c.Batch = 0 }, "{Batch} must be at least 1"},
		{"zero blocks per insert", func(c *Config) { c.BlocksPerInsert = 0 }, "{BlocksPerInsert} must be at least 1"},
		{"negative rows", func(c *Config) { c.Rows = -1 }, "{Rows} must not be negative, got -1"},
		{"too many extra columns", func(c *Config) { c.ExtraColumns, c.Create = MaxExtraColumns+1, true }, "{ExtraColumns} must be 0 to"},
		{"extra columns without create", func(c *Config) { c.ExtraColumns = 3 }, "add {Create}"},
		{"rows with warm-up", func(c *Config) { c.Rows, c.Load.Warmup = 10, time.Second }, "{Warmup} needs {Duration}"},
		{"rows fewer blocks than workers", func(c *Config) { c.Rows, c.Load.Workers = 10, 4 }, "fewer than {Workers} 4"},
		{"rows", func(c *Config) { c.Rows = 4500 }, ""},
		{"unknown client", func(c *Config) { c.Clients = []string{"odbc"} }, "unknown client"},
		{"no address", func(c *Config) { c.DSN.Addr = "" }, "no server address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := validConfig()
			tc.edit(&c)
			err := c.Validate()
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Validate() = %v, want %q", err, tc.want)
			}
		})
	}
}

// A row count becomes a count of blocks, the last one short.
func TestConfigLoadConfig(t *testing.T) {
	for _, tc := range []struct {
		rows   int64
		batch  int
		blocks int64
	}{{4500, 1000, 5}, {4000, 1000, 4}, {1, 1000, 1}} {
		c := validConfig()
		c.Rows, c.Batch = tc.rows, tc.batch
		cfg, _ := c.LoadConfig()
		if cfg.Count != tc.blocks || cfg.Duration != 0 || len(cfg.Phases) != 2 {
			t.Errorf("rows %d batch %d: count %d duration %s phases %v, want %d blocks, no duration, build and send",
				tc.rows, tc.batch, cfg.Count, cfg.Duration, cfg.Phases, tc.blocks)
		}
	}
}

func TestConfigGate(t *testing.T) {
	old := ch.Version{Major: 18, Minor: 16, Patch: 1}
	modern := ch.Version{Major: 24, Minor: 8}
	for _, tc := range []struct {
		name    string
		clients []string
		server  ch.Version
		ok      []string
		refused int
	}{
		{"auto on 18.16 keeps the v1 paths silently", nil, old, []string{"clickhouse-go-v1", "clickhouse-go-v1-column", "sqlx-v1"}, 0},
		{"auto on a modern server keeps every Go path, no external one", nil, modern, goPaths(), 0},
		{"listed modern clients on 18.16 are refused", []string{"ch-go", "clickhouse-go-v1"}, old, []string{"clickhouse-go-v1"}, 1},
		// issue 35: "--clients auto,php-seasclick" was "unknown client auto"
		{"auto in a list is the Go paths there, beside the named", []string{"auto", "php-seasclick"}, old,
			[]string{"clickhouse-go-v1", "clickhouse-go-v1-column", "sqlx-v1", "php-seasclick"}, 0},
		{"auto in a list runs a named path once", []string{"sqlx-v1", "auto"}, old, []string{"sqlx-v1", "clickhouse-go-v1", "clickhouse-go-v1-column"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := validConfig()
			c.Clients = tc.clients
			ok, refused := c.Gate(tc.server)
			if strings.Join(ok, ",") != strings.Join(tc.ok, ",") || len(refused) != tc.refused {
				t.Errorf("Gate = %v, %v; want %v and %d refused", ok, refused, tc.ok, tc.refused)
			}
			for _, err := range refused { // each refusal names every path the server takes, external ones too
				if !strings.Contains(err.Error(), "pick a client that supports it (clickhouse-go-v1, clickhouse-go-v1-column, php-seasclick, php-seasclick-block, python-clickhouse-driver, sqlx-v1, worker)") {
					t.Errorf("refusal %q does not suggest every v1 path", err)
				}
			}
		})
	}
	c := validConfig()
	c.Clients = []string{"ch-go"}
	_, err := Prepare(context.Background(), "ch", c, old)
	var ge *GateError
	if !errors.As(err, &ge) || !usage.Is(err) || !strings.Contains(err.Error(), "client ch-go needs ClickHouse") {
		t.Errorf("Prepare with only a refused client = %v, want a usage GateError naming it", err)
	}
}

// goPaths are the registered paths that run inside dbmeter.
func goPaths() []string {
	var out []string
	for _, n := range Names() {
		if cl, _ := Lookup(n); cl.External == nil {
			out = append(out, n)
		}
	}
	return out
}

func TestReconcile(t *testing.T) {
	tbl := Table{Database: "d", Name: "t"}
	for _, tc := range []struct {
		name                      string
		acked, counted, uncertain int64
		kind                      string // error kind added, "" none
		warn                      string
	}{
		{"exact", 100, 100, 0, "", ""},
		{"lost", 100, 90, 0, "lost_rows", "10 missing"},
		{"extra", 100, 130, 20, "extra_rows", "another writer"},
		{"uncertain landed", 100, 110, 20, "", "10 of them landed"},
		{"uncertain lost", 100, 100, 20, "", "0 of them landed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r result.Run
			Reconcile(&r, tbl, tc.acked, tc.counted, tc.uncertain)
			got := ""
			for k := range r.ErrorKinds {
				got = k
			}
			if got != tc.kind || (tc.kind != "") != (r.Errors == 1) {
				t.Errorf("error kinds %v, errors %d; want %q", r.ErrorKinds, r.Errors, tc.kind)
			}
			if w := strings.Join(r.Warnings, "|"); tc.warn == "" && w != "" || !strings.Contains(w, tc.warn) {
				t.Errorf("warnings %q, want %q", w, tc.warn)
			}
			if r.Extra["rows_counted"] != float64(tc.counted) {
				t.Errorf("rows_counted %v", r.Extra["rows_counted"])
			}
		})
	}
}

// sink collects a plan's runs.
type sink struct{ runs []result.Run }

func (s *sink) Watcher(string, string, string, ...string) load.Watcher { return nil }
func (s *sink) AddCapacity(result.Capacity)                            {}
func (s *sink) Add(runs ...result.Run)                                 { s.runs = append(s.runs, runs...) }

// TestPlanOnLegacyServer runs an insert plan without the CLI against 18.16:
// every client the server supports (auto) × 2 repetitions inserts exactly
// the rows asked for, and they reconcile. The repetitions are interleaved:
// every client once, then every client again.
func TestPlanOnLegacyServer(t *testing.T) {
	d := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
	ctx := context.Background()
	version := versionOf(t, d)
	db := scratchDB(t, openAdmin(t, d))
	c := validConfig()
	c.DSN, c.Table, c.Create, c.Rows, c.Repeat = d, Table{Database: db, Name: "plan"}, true, 2500, 2
	c.Load.Workers, c.Load.Interval = 2, 0
	p, err := Prepare(ctx, "ch", c, version)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var s sink
	if err := plan.Execute(ctx, p.Plan, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.runs) != 6 {
		t.Fatalf("%d runs, want 3 legacy clients × 2", len(s.runs))
	}
	for i, r := range s.runs {
		if r.Family != "ch" || r.Rows != 2500 || r.Errors != 0 || r.Extra["rows_counted"] != 2500 || r.Repeat != 1+i/3 || r.Seed != uint64(1+i/3) {
			t.Errorf("run %d %s: family %q rows %d errors %v counted %v repeat %d seed %d", i, r.Target, r.Family, r.Rows, r.ErrorKinds, r.Extra["rows_counted"], r.Repeat, r.Seed)
		}
	}
}

// A shard inserts its share of the rows into a table of its own, so its
// row check counts its inserts only.
func TestForShard(t *testing.T) {
	t.Parallel()
	c := Config{Rows: 10, Table: Table{Database: "dbmeter", Name: "event"}}
	c.Load.Shard = load.Shard{Index: 1, Count: 3}
	got := c.ForShard()
	if got.Rows != 3 || got.Table.Name != "event_shard1" {
		t.Errorf("shard 1/3 of 10 rows into event: %d rows into %s, want 3 into event_shard1", got.Rows, got.Table.Name)
	}
	if plain := (Config{Rows: 10, Table: Table{Name: "event"}}).ForShard(); plain.Rows != 10 || plain.Table.Name != "event" {
		t.Errorf("an unsharded run changed: %+v", plain)
	}
}
