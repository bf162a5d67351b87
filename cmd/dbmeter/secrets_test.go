package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"
)

// No family may print or record a password: not on stdout or stderr, not in
// the result document or any report, not in an error about a wrong one.
func TestPasswordsNeverAppear(t *testing.T) {
	servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN")
	pgDSN, chDSN := servertest.PostgresDB(t), os.Getenv("DBMETER_CLICKHOUSE_LEGACY_DSN")
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
