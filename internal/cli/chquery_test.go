package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"strings"
	"testing"
)

// TestCHQueryBadInput covers the mistakes `ch query` refuses before it
// connects to anything: each is one line on stderr and exit 2.
func TestCHQueryBadInput(t *testing.T) {
	t.Parallel()
	const dsn = "tcp://127.0.0.1:1?username=u&password=s3cretpw"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no dsn", []string{"--preset", "count"}, "--dsn is required"},
		{"unknown preset", []string{"--dsn", dsn, "--preset", "nope"}, `unknown preset "nope"`},
		{"unknown client", []string{"--dsn", dsn, "--preset", "count", "--clients", "odbc"}, `unknown client "odbc"`},
		{"too few args", []string{"--dsn", dsn, "--query", "SELECT ? + ?", "--arg", "1"}, "2 ? placeholders but 1 --arg"},
		{"args with preset", []string{"--dsn", dsn, "--preset", "count", "--arg", "1"}, "--arg goes with --query"},
		{"preset and query", []string{"--dsn", dsn, "--preset", "count", "--query", "SELECT 1"}, "contradict"},
		{"list without matrix", []string{"--dsn", dsn, "--preset", "count", "--pool-max-idle", "0,10"}, "add --matrix"},
		{"bad decode", []string{"--dsn", dsn, "--preset", "count", "--decode", "diagonal"}, "want row or column"},
		{"too many select rows", []string{"--dsn", dsn, "--preset", "numbers", "--select-rows", "10001"}, "--select-rows must be 1 to 10000"},
		{"select rows without numbers", []string{"--dsn", dsn, "--preset", "count", "--select-rows", "10"}, "add --preset numbers"},
		{"prepared over http", []string{"--dsn", dsn, "--preset", "count", "--clients", "http", "--prepared"}, "no prepare or bind API"},
		{"protocol a client lacks", []string{"--dsn", dsn, "--preset", "count", "--clients", "clickhouse-go-v1", "--protocol", "http"}, "speaks native, not http"},
		{"bad dsn", []string{"--dsn", "mysql://x", "--preset", "count"}, "parse DSN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, _, stderr := run(t, append([]string{"ch", "query"}, tt.args...)...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("ch query %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tt.args, " "), code, stderr, tt.want)
			}
			if strings.Contains(stderr, "s3cretpw") {
				t.Errorf("stderr shows the password: %q", stderr)
			}
			if n := strings.Count(strings.TrimSpace(stderr), "\n"); n > 0 {
				t.Errorf("stderr has %d lines, want one: %q", n+1, stderr)
			}
		})
	}
}

// TestCHDSNFromEnvironment: without --dsn, both ch commands read the DSN
// from DBMETER_CLICKHOUSE_DSN (here a closed port: the run fails to
// connect, exit 1, not a usage error), and never show its password.
func TestCHDSNFromEnvironment(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // refused from now on
	for _, args := range [][]string{
		{"ch", "query", "--preset", "count", "--connect-timeout", "2s"},
		{"ch", "insert", "--rows", "1000", "--connect-timeout", "2s"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), Env{
			Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string {
				if k == "DBMETER_CLICKHOUSE_DSN" {
					return "tcp://" + addr + "?username=u&password=s3cretpw"
				}
				return ""
			},
		})
		if code != exitFailed || !strings.Contains(errb.String(), addr) || strings.Contains(out.String()+errb.String(), "s3cretpw") {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 naming %s, no password", strings.Join(args, " "), code, errb.String(), addr)
		}
	}
}

// TestCHConnectErrorsSayWhatToCheck: the first contact with a ClickHouse
// server that fails says what to check, in one line, as pg's do (issue 35:
// "dial tcp 127.0.0.1:5999: connect: connection refused" alone). The wrong
// password and database need the dev-services server; without it those
// cases are skipped.
func TestCHConnectErrorsSayWhatToCheck(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	legacy := os.Getenv("DBMETER_CLICKHOUSE_LEGACY_DSN")
	tests := []struct {
		name, dsn, want string
		server          bool
	}{
		{"refused", "tcp://" + closed + "?username=u&password=s3cretpw", "connection refused: is ClickHouse running and listening there, on its native TCP port", false},
		{"unknown host", "tcp://nohost.invalid:9000?password=s3cretpw", `unknown host "nohost.invalid": check the host name in --dsn`, false},
		{"wrong password", strings.Replace(legacy, "password=", "password=s3cretpw", 1), "Wrong password for user dbmeter: check the user and password in --dsn", true},
		{"no database", strings.Replace(legacy, "database=default", "database=nope", 1), "Database nope doesn't exist: create it or name another in --dsn", true},
	}
	for _, tc := range tests {
		if tc.server && legacy == "" {
			t.Logf("%s: skipped, DBMETER_CLICKHOUSE_LEGACY_DSN is not set", tc.name)
			continue
		}
		for _, cmd := range []string{"insert", "query"} {
			code, stdout, stderr := run(t, "ch", cmd, "--dsn", tc.dsn, "--clients", "clickhouse-go-v1", "--preset", "count", "--connect-timeout", "3s")
			if cmd == "insert" {
				code, stdout, stderr = run(t, "ch", cmd, "--dsn", tc.dsn, "--clients", "clickhouse-go-v1", "--rows", "10", "--connect-timeout", "3s")
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != exitFailed || len(lines) != 1 || !strings.Contains(lines[0], tc.want) || strings.Contains(stdout+stderr, "s3cretpw") {
				t.Errorf("ch %s, %s: exit %d, stderr %q; want exit 1 and one line saying %q, no password", cmd, tc.name, code, stderr, tc.want)
			}
		}
	}
}
