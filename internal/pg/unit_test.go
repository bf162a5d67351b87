package pg

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/lib/pq"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

func TestStmtText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		st   Stmt
		args []any
		want string
	}{
		{Stmt{SQL: "BEGIN"}, nil, "BEGIN"},
		{Stmt{SQL: "SELECT $1", Parts: []string{"SELECT ", ""}}, []any{int64(-42)}, "SELECT -42"},
		{Stmt{SQL: "SELECT $1, $2", Parts: []string{"SELECT ", ", ", ""}}, []any{1.5, "abc"}, "SELECT 1.5, abc"},
	}
	for _, tt := range tests {
		if got := tt.st.Text(tt.args); got != tt.want {
			t.Errorf("Text(%q, %v) = %q, want %q", tt.st.SQL, tt.args, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{&pgconn.PgError{Code: "40001"}, KindSerialization},
		{&pgconn.PgError{Code: "40P01"}, KindSerialization},
		{&pgconn.PgError{Code: "23505"}, load.KindServer},
		{&pgconn.PgError{Code: "57P01"}, load.KindConnection},
		{&pgconn.PgError{Code: "08006"}, load.KindConnection},
		{&pq.Error{Code: "40001"}, KindSerialization},
		{&pq.Error{Code: "42P01"}, load.KindServer},
		{context.DeadlineExceeded, load.KindTimeout},
		{errors.New("conn closed"), load.KindConnection},
		{errors.New("something else"), load.KindOther},
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got != tt.want {
			t.Errorf("Classify(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestWithParam(t *testing.T) {
	t.Parallel()
	tests := []struct{ dsn, want string }{
		{"postgres://u@h:1/db?sslmode=disable", "postgres://u@h:1/db?binary_parameters=yes&sslmode=disable"},
		{"host=h dbname=db", "host=h dbname=db binary_parameters=yes"},
	}
	for _, tt := range tests {
		if got := withParam(tt.dsn, "binary_parameters", "yes"); got != tt.want {
			t.Errorf("withParam(%q) = %q, want %q", tt.dsn, got, tt.want)
		}
	}
}

func TestConnInfoDSN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ci   ConnInfo
		want string
	}{
		{ConnInfo{Host: "127.0.0.1", Port: "5433", User: "u", Password: "p@ss", DBName: "db"}, "postgres://u:p%40ss@127.0.0.1:5433/db"},
		{ConnInfo{Host: "/var/run/postgresql", Port: "5432", User: "u", DBName: "db"}, "postgres://u@/db?host=%2Fvar%2Frun%2Fpostgresql&port=5432"},
		{ConnInfo{Host: "h", DBName: "db", SSLMode: "disable"}, "postgres://h/db?sslmode=disable"},
	}
	for _, tt := range tests {
		if got := tt.ci.DSN(); got != tt.want {
			t.Errorf("%+v.DSN() = %q, want %q", tt.ci, got, tt.want)
		}
		if _, _, err := Endpoint(tt.ci.DSN()); err != nil {
			t.Errorf("Endpoint(%q): %v", tt.ci.DSN(), err)
		}
	}
}

func TestInitConfigValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mod  func(*InitConfig)
		want string
	}{
		{func(*InitConfig) {}, ""},
		{func(c *InitConfig) { c.Scale = 0 }, "scale"},
		{func(c *InitConfig) { c.Fillfactor = 5 }, "fillfactor"},
		{func(c *InitConfig) { c.Steps = "dtx" }, `step "x"`},
		{func(c *InitConfig) { c.Steps = " " }, "no initialization steps"},
	}
	for _, tt := range tests {
		c := DefaultInitConfig()
		tt.mod(&c)
		err := c.Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Validate(%+v) = %v, want %q", c, err, tt.want)
		}
	}
}

func TestParseMode(t *testing.T) {
	t.Parallel()
	for _, m := range Modes() {
		if got, err := ParseMode(m.String()); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m, got, err)
		}
	}
	if _, err := ParseMode("fast"); err == nil {
		t.Error(`ParseMode("fast") succeeded`)
	}
}

func TestLookupDriver(t *testing.T) {
	t.Parallel()
	if _, err := LookupDriver("odbc"); err == nil || !strings.Contains(err.Error(), "pgx, pgx-stdlib, pq") {
		t.Errorf("LookupDriver(odbc) = %v, want an error listing the drivers", err)
	}
}

// TestInitRefusesForeignTables: tables dbmeter did not create are never
// dropped or reloaded without --force, and the refusal names the table.
func TestInitRefusesForeignTables(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	ctx := context.Background()
	conn := testConn(t, dsn)
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "create table pgbench_tellers(tid int, keep text); insert into pgbench_tellers values (1, 'mine')"); err != nil {
		t.Fatal(err)
	}
	for _, steps := range []string{"dtgvp", "g", "G"} {
		c := DefaultInitConfig()
		c.Steps = steps
		err := Init(ctx, conn, c)
		if err == nil || !strings.Contains(err.Error(), "pgbench_tellers") || !strings.Contains(err.Error(), "{Force}") {
			t.Fatalf("Init(%s) over a foreign table = %v, want a refusal naming pgbench_tellers", steps, err)
		}
	}
	var keep string
	if err := conn.QueryRow(ctx, "select keep from pgbench_tellers").Scan(&keep); err != nil || keep != "mine" {
		t.Fatalf("the foreign table was touched: %q, %v", keep, err)
	}
	c := DefaultInitConfig()
	c.Force = true
	if err := Init(ctx, conn, c); err != nil {
		t.Fatalf("Init with Force: %v", err)
	}
	st, err := ReadTables(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Missing()) > 0 || len(st.Foreign()) > 0 {
		t.Errorf("after Init: missing %v, foreign %v; want all four, all dbmeter's", st.Missing(), st.Foreign())
	}
	var n int64
	if err := conn.QueryRow(ctx, "select count(*) from pgbench_accounts").Scan(&n); err != nil || n != AccountsPerScale {
		t.Errorf("pgbench_accounts has %d rows (%v), want %d", n, err, AccountsPerScale)
	}
	// A second init over dbmeter's own tables needs no --force.
	if err := Init(ctx, conn, DefaultInitConfig()); err != nil {
		t.Errorf("re-initialising dbmeter's own tables: %v", err)
	}
}

// TestUnavailableHow: a view that could not be read is blamed on what
// failed. A cancelled or timed-out read (an interrupted run) is no matter
// of privileges (issue 35: "context canceled; grant the role
// pg_read_all_stats" for a superuser).
func TestUnavailableHow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"cancelled", fmt.Errorf("timeout: context already done: %w", context.Canceled), ""},
		{"out of time", fmt.Errorf("read: %w", context.DeadlineExceeded), ""},
		{"not created", &pgconn.PgError{Code: "42P01"}, "CREATE EXTENSION pg_stat_statements"},
		{"not preloaded", &pgconn.PgError{Code: "55000"}, "shared_preload_libraries"},
		{"privileges", &pgconn.PgError{Code: "42501"}, "grant the role pg_read_all_stats"},
		{"connection lost", errors.New("conn closed"), ""},
	} {
		got := unavailableHow(tc.err)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: unavailableHow(%v) = %q, want %q", tc.name, tc.err, got, tc.want)
		}
	}
}
