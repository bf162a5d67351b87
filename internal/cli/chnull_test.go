package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// TestCHNullServer is the "done when" against the stand-in that
// `dbmeter ch null-server` runs: every modern insert path streaming three
// blocks per INSERT and every modern query path with --prepared, plain and
// over TLS; the rows the stand-in counted equal the rows acknowledged
// (insert's own check compares them and fails the run otherwise).
func TestCHNullServer(t *testing.T) {
	servertest.E2E(t, "every modern insert and query path against the stand-in, plain and over TLS: tens of seconds")
	for _, useTLS := range []bool{false, true} {
		t.Run(fmt.Sprintf("tls=%t", useTLS), func(t *testing.T) {
			t.Parallel() // each its own stand-in
			srv, err := startNullServer("127.0.0.1:0", useTLS)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			dsn, httpURL := "clickhouse://"+srv.Addr()+"/default", "http://"+srv.Addr()
			if useTLS {
				dsn, httpURL = dsn+"?secure=true&skip_verify=true", "https://"+srv.Addr()
			}
			const clients, rows = "clickhouse-go-row,clickhouse-go-column,ch-go,database-sql,sqlx,gorm", 6000
			code, stdout, stderr := run(t, "ch", "insert", "--dsn", dsn, "--clients", clients, "--batch", "1000", "--blocks-per-insert", "3", "--rows", fmt.Sprint(rows))
			if code != 0 || strings.Count(stdout, " ok ") != 6 {
				t.Fatalf("insert: exit %d\n%s\n%s", code, stdout, stderr)
			}
			if n, _ := srv.Rows(insert.DefaultDatabase, "event"); n != 6*rows {
				t.Errorf("the stand-in counted %d rows, want %d", n, 6*rows)
			}
			for _, args := range [][]string{
				{"--clients", "ch-go,clickhouse-go,clickhouse-go-sql", "--prepared"},
				{"--clients", "ch-go,clickhouse-go,clickhouse-go-sql"},
				{"--clients", "clickhouse-go,clickhouse-go-sql", "--prepared", "--protocol", "http", "--http-url", httpURL},
			} {
				code, stdout, stderr := run(t, append([]string{"ch", "query", "--dsn", dsn, "--preset", "select1k", "--rate", "50", "--duration", "1s"}, args...)...)
				if code != 0 {
					t.Errorf("query %v: exit %d\n%s\n%s", args, code, stdout, stderr)
				}
			}
			totals := srv.Log().Totals()
			if totals.Errors != 0 || useTLS && totals.TLSQueries != totals.Queries {
				t.Errorf("the stand-in logged %+v: want no errors, and with --tls every query over TLS", totals)
			}
		})
	}
}

// TestCHDSNRefusals: a DSN parameter a path cannot honour is refused in
// one line naming the path, an unknown key in one line naming the key,
// and read_timeout=10 works where it can.
func TestCHDSNRefusals(t *testing.T) {
	srv, err := startNullServer("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := "clickhouse://" + srv.Addr() + "/default?"
	for _, tc := range []struct {
		name, query, clients string
		code                 int
		want                 string
	}{
		{"read_timeout on v2 paths", "read_timeout=10", "clickhouse-go-row,database-sql,gorm", 0, ""},
		{"read_timeout on ch-go", "read_timeout=10", "clickhouse-go-row,ch-go", 2, "client ch-go cannot honour DSN key read_timeout"},
		{"write_timeout on v2", "write_timeout=10", "sqlx", 2, "client sqlx cannot honour DSN key write_timeout"},
		{"unknown key", "no_such_key=1", "ch-go", 2, "DSN key no_such_key is neither a client parameter"},
		{"v1 client key", "no_delay=false", "ch-go", 2, "DSN key no_delay is not taken"},
		{"a setting v1 drops", "async_insert=1", "clickhouse-go-v1", 2, "client clickhouse-go-v1 cannot honour DSN setting async_insert"},
		{"a setting the modern paths send", "async_insert=1", "clickhouse-go-column,ch-go", 0, ""},
		{"TLS to a plaintext server", "secure=true&skip_verify=true", "ch-go", 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "ch", "insert", "--dsn", base+tc.query, "--clients", tc.clients, "--batch", "100", "--rows", "200", "--connect-timeout", "2s")
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != tc.code || (tc.code != 0 && len(lines) != 1) || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and one line containing %q\n%s", code, stderr, tc.code, tc.want, stdout)
			}
		})
	}
}
