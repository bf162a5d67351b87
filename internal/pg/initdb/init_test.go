package initdb_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/pg/initdb"
	"github.com/dbmeter/dbmeter/internal/pg/pgtest"
	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// catalog describes the pgbench relations: name, persistence, kind,
// partition bound and options, plus what the accounts hold.
func catalog(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	conn := pgtest.Conn(t, dsn)
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT relname || ' ' || relpersistence::text || ' ' || relkind::text || ' ' || coalesce(pg_get_expr(relpartbound, oid), '') ||
		' ' || coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE relname LIKE 'pgbench%' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	var n, sum, bids int64
	if err := conn.QueryRow(ctx, "SELECT count(*), sum(aid), count(DISTINCT bid) FROM pgbench_accounts").Scan(&n, &sum, &bids); err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, "\n") + fmt.Sprintf("\naccounts %d, sum(aid) %d, branches %d", n, sum, bids)
}

// TestPgbenchInitOptions: -i with partitions, unlogged tables, foreign
// keys and fill factor makes the same relations as pgbench -i.
func TestPgbenchInitOptions(t *testing.T) {
	bin := pgtest.Pgbench(t)
	dsn := pgtest.InitDB(t)
	for _, tc := range []struct {
		name string
		args []string
		cfg  initdb.Config
	}{
		{"range partitions", []string{"--partitions", "3"}, initdb.Config{Partitions: 3}},
		{"hash partitions unlogged", []string{"--partitions", "4", "--partition-method", "hash", "--unlogged-tables"}, initdb.Config{Partitions: 4, PartitionMethod: "hash", Unlogged: true}},
		{"unlogged fillfactor foreign keys", []string{"--unlogged-tables", "-F", "80", "--foreign-keys"}, initdb.Config{Unlogged: true, Fillfactor: 80, Steps: "dtgvpf"}},
		{"server-side generation", []string{"-I", "dtGvp"}, initdb.Config{Steps: "dtGvp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-i", "-q", "-s", "2"}, tc.args...)
			if out, err := exec.Command(bin, append(args, dsn)...).CombinedOutput(); err != nil {
				t.Fatalf("pgbench -i: %v\n%s", err, out)
			}
			want := catalog(t, dsn)
			cfg := tc.cfg
			cfg.Scale, cfg.Force, cfg.Quiet = 2, true, true
			if cfg.Fillfactor == 0 {
				cfg.Fillfactor = 100
			}
			if cfg.Steps == "" {
				cfg.Steps = "dtgvp"
			}
			ctx := context.Background()
			conn := pgtest.Conn(t, dsn)
			defer conn.Close(ctx)
			if err := initdb.Init(ctx, conn, cfg); err != nil {
				t.Fatal(err)
			}
			if got := catalog(t, dsn); got != want {
				t.Errorf("relations differ:\npgbench -i:\n%s\ndbmeter:\n%s", want, got)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mod  func(*initdb.Config)
		want string
	}{
		{func(*initdb.Config) {}, ""},
		{func(c *initdb.Config) { c.Scale = 0 }, "scale"},
		{func(c *initdb.Config) { c.Fillfactor = 5 }, "fillfactor"},
		{func(c *initdb.Config) { c.Steps = "dtx" }, `step "x"`},
		{func(c *initdb.Config) { c.Steps = " " }, "no initialization steps"},
	}
	for _, tt := range tests {
		c := initdb.DefaultConfig()
		tt.mod(&c)
		err := c.Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Validate(%+v) = %v, want %q", c, err, tt.want)
		}
	}
}

// TestInitRefusesForeignTables: tables dbmeter did not create are never
// dropped or reloaded without --force, and the refusal names the table.
func TestInitRefusesForeignTables(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	ctx := context.Background()
	conn := pgtest.Conn(t, dsn)
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "create table pgbench_tellers(tid int, keep text); insert into pgbench_tellers values (1, 'mine')"); err != nil {
		t.Fatal(err)
	}
	for _, steps := range []string{"dtgvp", "g", "G"} {
		c := initdb.DefaultConfig()
		c.Steps = steps
		err := initdb.Init(ctx, conn, c)
		if err == nil || !strings.Contains(err.Error(), "pgbench_tellers") || !strings.Contains(err.Error(), "{Force}") {
			t.Fatalf("Init(%s) over a foreign table = %v, want a refusal naming pgbench_tellers", steps, err)
		}
	}
	var keep string
	if err := conn.QueryRow(ctx, "select keep from pgbench_tellers").Scan(&keep); err != nil || keep != "mine" {
		t.Fatalf("the foreign table was touched: %q, %v", keep, err)
	}
	c := initdb.DefaultConfig()
	c.Force = true
	if err := initdb.Init(ctx, conn, c); err != nil {
		t.Fatalf("Init with Force: %v", err)
	}
	st, err := server.ReadTables(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Missing()) > 0 || len(st.Foreign()) > 0 {
		t.Errorf("after Init: missing %v, foreign %v; want all four, all dbmeter's", st.Missing(), st.Foreign())
	}
	var n int64
	if err := conn.QueryRow(ctx, "select count(*) from pgbench_accounts").Scan(&n); err != nil || n != initdb.AccountsPerScale {
		t.Errorf("pgbench_accounts has %d rows (%v), want %d", n, err, initdb.AccountsPerScale)
	}
	// A second init over dbmeter's own tables needs no --force.
	if err := initdb.Init(ctx, conn, initdb.DefaultConfig()); err != nil {
		t.Errorf("re-initialising dbmeter's own tables: %v", err)
	}
}
