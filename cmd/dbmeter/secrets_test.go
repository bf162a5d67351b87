package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// No family may print or record a password: not on stdout or stderr, not in
// the result document or any report, not in an error about a wrong one.
func TestPasswordsNeverAppear(t *testing.T) {
	sharedServices(t, "DBMETER_PG_DSN", "DBMETER_CLICKHOUSE_LEGACY_DSN")
	pgDSN, chDSN := ownDatabase(t, os.Getenv("DBMETER_PG_DSN")), os.Getenv("DBMETER_CLICKHOUSE_LEGACY_DSN")
	pgURL, _ := url.Parse(pgDSN)
	realPG, _ := pgURL.User.Password()
	chURL, _ := url.Parse(chDSN)
	realCH := chURL.Query().Get("password")

	const wrong = "Wr0ngSecret-7f3a"
	badPG := *pgURL
	badPG.User = url.UserPassword(pgURL.User.Username(), wrong)
	badCH := *chURL
	q := badCH.Query()
	q.Set("password", wrong)
	badCH.RawQuery = q.Encode()

	if code, _, stderr := dbmeter(t, nil, "pg", "--dsn", pgDSN, "-i", "-s", "1", "--quiet"); code != 0 {
		t.Fatalf("pg init: exit %d: %s", code, stderr)
	}

	tests := []struct {
		name string
		env  []string
		args []string
		ok   bool
	}{
		{"pg with a DSN", nil, []string{"pg", "--dsn", pgDSN, "-T", "1", "-S", "-n"}, true},
		{"pg with PGPASSWORD", []string{"PGHOST=" + pgURL.Hostname(), "PGPORT=" + pgURL.Port(), "PGUSER=" + pgURL.User.Username(),
			"PGDATABASE=" + strings.TrimPrefix(pgURL.Path, "/"), "PGPASSWORD=" + realPG}, []string{"pg", "-T", "1", "-S", "-n"}, true},
		{"pg with a wrong password", nil, []string{"pg", "--dsn", badPG.String(), "-T", "1", "-S", "-n"}, false},
		{"ch insert", nil, []string{"ch", "insert", "--dsn", chDSN, "--clients", "clickhouse-go-v1", "--create", "--rows", "20000", "--batch", "10000"}, true},
		{"ch insert with a wrong password", nil, []string{"ch", "insert", "--dsn", badCH.String(), "--clients", "clickhouse-go-v1", "--rows", "1000"}, false},
		{"ch query", nil, []string{"ch", "query", "--dsn", chDSN, "--clients", "clickhouse-go-v1", "--create", "--preset", "count", "--rate", "20", "--duration", "1s", "--no-warmup"}, true},
		{"ch query with a wrong password", nil, []string{"ch", "query", "--dsn", badCH.String(), "--clients", "clickhouse-go-v1", "--preset", "count", "--rate", "20", "--duration", "1s"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			outs := map[string]string{}
			args := append([]string(nil), tt.args...)
			for _, f := range []string{"json", "html", "md", "csv"} {
				outs[f] = filepath.Join(dir, "r."+f)
				args = append(args, "--"+f, outs[f])
			}
			code, stdout, stderr := dbmeter(t, tt.env, args...)
			if tt.ok && code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !tt.ok && code == 0 {
				t.Fatalf("exit 0 with a wrong password")
			}
			texts := map[string]string{"stdout": stdout, "stderr": stderr}
			for f, p := range outs {
				if b, err := os.ReadFile(p); err == nil {
					texts[f] = string(b)
				}
			}
			for where, text := range texts {
				for _, secret := range []string{realPG, realCH, wrong} {
					if secret != "" && strings.Contains(text, secret) {
						t.Errorf("%s shows a password", where)
					}
				}
			}
		})
	}
}

// ownDatabase creates a database for the test alone on the server of dsn,
// dropped at the end, so tests sharing the server never touch each other's
// pgbench tables. It returns the DSN pointing at it.
func ownDatabase(t *testing.T, dsn string) string {
	t.Helper()
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	name := fmt.Sprintf("dbmeter_test_%d", time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, _ := url.Parse(dsn)
	u.Path = "/" + name
	return u.String()
}
