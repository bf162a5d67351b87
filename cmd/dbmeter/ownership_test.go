package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/servertest"
	"github.com/jackc/pgx/v5"
)

// pgbench's own tables (made by pgbench, so unmarked) survive every dbmeter
// pg command that does not say --force.
func TestUnmarkedPGTablesSurvive(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	if out, err := exec.Command("pgbench", "-i", "-s", "1", "-q", dsn).CombinedOutput(); err != nil {
		t.Fatalf("pgbench -i: %v\n%s", err, out)
	}
	count := func() (accounts, tables int64) {
		conn, err := pgx.Connect(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		conn.QueryRow(t.Context(), "SELECT count(*) FROM pgbench_accounts").Scan(&accounts)
		conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'pgbench_%'").Scan(&tables)
		return
	}
	accounts, tables := count()

	code, _, stderr := dbmeter(t, nil, "pg", "--dsn", dsn, "-i", "-s", "2")
	if code == 0 || !strings.Contains(stderr, "--force") {
		t.Errorf("pg -i over pgbench's tables: exit %d, stderr %q; want a refusal naming --force", code, stderr)
	}
	for _, args := range [][]string{
		{"pg", "--dsn", dsn, "-T", "1", "-S"},
		{"pg", "--dsn", dsn, "-T", "1"},
		{"pg", "--dsn", dsn, "-i", "-I", "dtgvp"},
	} {
		dbmeter(t, nil, append(args, "--quiet")...)
	}
	if a, n := count(); a != accounts || n != tables {
		t.Errorf("after dbmeter: %d accounts in %d tables, want %d in %d: an unmarked table was touched", a, n, accounts, tables)
	}
}

// A ClickHouse table dbmeter did not create is refused, never replaced.
func TestUnmarkedCHTableSurvives(t *testing.T) {
	servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN")
	servertest.Env(t, "DBMETER_CLICKHOUSE_HTTP_URL")
	db := fmt.Sprintf("dbmeter_own_%d", time.Now().UnixNano())
	chExec(t, "CREATE DATABASE "+db)
	t.Cleanup(func() { chExec(t, "DROP DATABASE IF EXISTS "+db) })
	chExec(t, "CREATE TABLE "+db+".event (lid Int64, note String) ENGINE = MergeTree() ORDER BY lid")
	chExec(t, "INSERT INTO "+db+".event VALUES (1, 'mine')")

	dsn := os.Getenv("DBMETER_CLICKHOUSE_LEGACY_DSN")
	for _, args := range [][]string{
		{"ch", "insert", "--dsn", dsn, "--clients", "clickhouse-go-v1", "--table", db + ".event", "--create", "--rows", "1000"},
		{"ch", "insert", "--dsn", dsn, "--clients", "clickhouse-go-v1", "--table", db + ".event", "--rows", "1000"},
	} {
		code, _, stderr := dbmeter(t, nil, args...)
		if code == 0 || strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
			t.Errorf("dbmeter %s: exit %d, stderr %q; want a one-line refusal", strings.Join(args[:3], " "), code, stderr)
		}
	}
	if got := chExec(t, "SELECT count() FROM "+db+".event WHERE note = 'mine'"); strings.TrimSpace(got) != "1" {
		t.Errorf("the unmarked table now holds %q rows of its own, want 1", got)
	}
}

// chExec runs one statement over the HTTP interface as the dev-services user.
func chExec(t *testing.T, sql string) string {
	t.Helper()
	dsn, _ := url.Parse(os.Getenv("DBMETER_CLICKHOUSE_LEGACY_DSN"))
	q := url.Values{"user": {dsn.Query().Get("username")}, "password": {dsn.Query().Get("password")}}
	resp, err := http.Post(os.Getenv("DBMETER_CLICKHOUSE_HTTP_URL")+"/?"+q.Encode(), "text/plain", strings.NewReader(sql))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s", sql, b)
	}
	return string(b)
}
