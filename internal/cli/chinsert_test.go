package cli

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

func TestCHInsertBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown client", []string{"--dsn", "clickhouse://h", "--clients", "clickhouse-go-v3"}, 2, "; known: ch-go, "},
		{"bad dsn", []string{"--dsn", "http://u:secretpw@h:8123"}, 2, "want clickhouse://"},
		{"no dsn", nil, 2, "--dsn is required"},
		{"bad table", []string{"--dsn", "clickhouse://h", "--table", "a.b.c"}, 2, "want db.name"},
		{"rows and duration", []string{"--dsn", "clickhouse://h", "--rows", "10", "--duration", "1s"}, 2, "contradict"},
		{"rows and warmup", []string{"--dsn", "clickhouse://h", "--rows", "10", "--warmup", "1s"}, 2, "--warmup needs --duration"},
		{"too few blocks", []string{"--dsn", "clickhouse://h", "--rows", "10", "--workers", "4"}, 2, "fewer than --workers 4"},
		{"zero batch", []string{"--dsn", "clickhouse://h", "--batch", "0"}, 2, "--batch must be at least 1"},
		{"extra without create", []string{"--dsn", "clickhouse://h", "--extra-columns", "5"}, 2, "add --create"},
		{"unknown schema", []string{"--dsn", "clickhouse://h", "--schema", "wide"}, 2, `--schema: no table shape "wide": want event or numbers`},
		{"unreachable", []string{"--dsn", "clickhouse://u:secretpw@127.0.0.1:1/db", "--rows", "10"}, 1, "127.0.0.1:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, append([]string{"ch", "insert"}, tt.args...)...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != tt.code || len(lines) != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and one line containing %q", code, stderr, tt.code, tt.want)
			}
			if strings.Contains(stdout+stderr, "secretpw") {
				t.Errorf("the password leaked: %q %q", stdout, stderr)
			}
		})
	}
}

func TestCHInsertDump(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := run(t, "ch", "insert", "--dump-format", "TSV", "--rows", "3", "--batch", "2")
	if code != 0 || strings.Count(stdout, "\n") != 3 || strings.Count(strings.SplitN(stdout, "\n", 2)[0], "\t") != 31 {
		t.Errorf("exit %d, stderr %q, %d lines; want 3 rows of 32 columns", code, stderr, strings.Count(stdout, "\n"))
	}
	code, stdout, stderr = run(t, "ch", "insert", "--schema", "numbers", "--dump-format", "TSV", "--rows", "3", "--batch", "2")
	if first := strings.SplitN(stdout, "\n", 2)[0]; code != 0 || strings.Count(stdout, "\n") != 3 || strings.Count(first, "\t") != 9 || !strings.Contains(first, ".") {
		t.Errorf("--schema numbers: exit %d, stderr %q, output %q; want 3 rows of 10 numbers, the floats with a point", code, stderr, stdout)
	}
}

// TestCHInsertLegacy is the "done when" against the dev-services
// server, scaled down: clickhouse-go-v1 inserts and the rows reconcile;
// listed modern clients are each refused with one line; exit 1.
func TestCHInsertLegacy(t *testing.T) {
	dsn, d, db := legacyScratch(t)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := run(t, "ch", "insert", "--dsn", dsn, "--create", "--table", db+".event",
		"--clients", "clickhouse-go-v1,ch-go,clickhouse-go-column", "--rows", "3000", "--batch", "1000", "--json", out)
	if code != 1 {
		t.Errorf("exit %d, want 1 (modern clients refused); stderr %q", code, stderr)
	}
	// The refusals of every client the server is too old for are folded
	// into one line, said once.
	const refusal = "clients ch-go, clickhouse-go-column need ClickHouse 21.8.0 or newer, but the server is 18.16"
	if n := strings.Count(stderr, refusal); n != 1 {
		t.Errorf("%d refusal lines naming ch-go and clickhouse-go-column, want 1: %q", n, stderr)
	}
	if !strings.Contains(stdout, "clickhouse-go-v1") || strings.Contains(stdout+stderr, d.Password) {
		t.Errorf("table missing or password shown:\n%s", stdout)
	}
	doc, err := result.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(doc.Runs))
	}
	r := doc.Runs[0]
	if r.Target != "clickhouse-go-v1" || r.Rows != 3000 || r.Errors != 0 || r.Extra["rows_counted"] != 3000 || r.Extra["rows_acknowledged"] != 3000 {
		b, _ := json.Marshal(r.Extra)
		t.Errorf("run %s: %d rows, %d errors, extra %s", r.Target, r.Rows, r.Errors, b)
	}
	if r.Phases["build"].P50 == 0 || r.Phases["send"].P50 == 0 || r.Server == "" {
		t.Errorf("phases %+v, server %q", r.Phases, r.Server)
	}
	if strings.Contains(r.Params["dsn"], d.Password) {
		t.Errorf("params show the password: %s", r.Params["dsn"])
	}
}

func dropDB(t *testing.T, d ch.DSN, db string) {
	t.Helper()
	sqlDB, err := sql.Open(ch.V1Driver, d.V1())
	if err != nil {
		t.Error(err)
		return
	}
	defer sqlDB.Close()
	if _, err := sqlDB.Exec("DROP DATABASE IF EXISTS " + db); err != nil {
		t.Errorf("drop %s: %v", db, err)
	}
}

// legacyScratch gates a test on dev-services' 18.16 and names a database
// of its own there, dropped when the test ends.
func legacyScratch(t *testing.T) (dsn string, d ch.DSN, db string) {
	dsn = legacyDSN(t)
	d, err := ch.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	db = fmt.Sprintf("dbmeter_chi_%08x", rand.Uint32())
	t.Cleanup(func() { dropDB(t, d, db) })
	return dsn, d, db
}

// legacyDSN gates a test on dev-services' 18.16.
func legacyDSN(t *testing.T) string {
	return servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN")
}

// TestCHPhasesCountEveryOp runs ch insert with a warm-up and ch query on
// 18.16: every measured operation, and only those, has its phases
// recorded (the runner's window rule), so each phase's count is ops.
func TestCHPhasesCountEveryOp(t *testing.T) {
	dsn, _, db := legacyScratch(t)
	for _, tc := range []struct {
		name   string
		args   []string
		phases []string
	}{
		{"insert", []string{"ch", "insert", "--dsn", dsn, "--create", "--table", db + ".event", "--clients", "clickhouse-go-v1",
			"--batch", "1000", "--workers", "2", "--warmup", "2s", "--duration", "2s"}, []string{"build", "send"}},
		{"query", []string{"ch", "query", "--dsn", dsn, "--clients", "clickhouse-go-v1,http", "--query", "SELECT number FROM system.numbers LIMIT 10",
			"--http-url", os.Getenv("DBMETER_CLICKHOUSE_HTTP_URL"), "--rate", "200", "--warmup", "1s", "--duration", "2s"}, []string{"decode"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.json")
			code, _, stderr := run(t, append(tc.args, "--json", out, "--quiet")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			doc, err := result.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range doc.Runs {
				if r.Ops == 0 {
					t.Errorf("%s: no operations", r.Target)
				}
				for _, ph := range tc.phases {
					if got := r.Phases[ph].Count; got != r.Ops {
						t.Errorf("%s: phase %s counted %d times, want ops = %d", r.Target, ph, got, r.Ops)
					}
				}
			}
		})
	}
}

// TestCHClientTooNew: both ch commands refuse a listed client too new for
// the server the same way, one line naming both versions and exit 2, and
// --create never touches a server table, saying what it lacks.
func TestCHClientTooNew(t *testing.T) {
	dsn := legacyDSN(t)
	const tooNew = "client ch-go needs ClickHouse 21.8.0 or newer, but the server is 18.16"
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"insert", []string{"ch", "insert", "--dsn", dsn, "--clients", "ch-go", "--duration", "1s"}, 2, tooNew},
		{"insert, two refused", []string{"ch", "insert", "--dsn", dsn, "--clients", "ch-go,gorm", "--duration", "1s"}, 2, "clients ch-go, gorm need ClickHouse"},
		{"query", []string{"ch", "query", "--dsn", dsn, "--clients", "ch-go", "--preset", "count", "--duration", "1s"}, 2, tooNew},
		{"server table", []string{"ch", "insert", "--dsn", dsn, "--table", "system.numbers", "--create", "--duration", "1s"}, 1, "it has no column with the comment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := run(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tc.code, tc.want)
			}
			if n := strings.Count(strings.TrimSpace(stderr), "\n"); n > 0 {
				t.Errorf("stderr has %d lines, want one: %q", n+1, stderr)
			}
		})
	}
}

// TestCHInsertBatchSweep is #36's "ch insert --batch 10000,100000 runs as
// a sweep" against dev-services' 18.16, scaled down: one table with a row
// per batch size, each its repetitions pooled, and repetitions interleaved
// (every batch size once, then again), each run with every row counted.
func TestCHInsertBatchSweep(t *testing.T) {
	dsn, _, db := legacyScratch(t)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := run(t, "ch", "insert", "--dsn", dsn, "--create", "--table", db+".event", "--clients", "clickhouse-go-v1",
		"--batch", "10000,100000", "--rows", "100000", "--repeat", "2", "--json", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stdout, "ch insert: rows per second by client"); n != 1 {
		t.Errorf("%d insert tables, want one for the sweep:\n%s", n, stdout)
	}
	for _, batch := range []string{"10000", "100000"} {
		row := regexp.MustCompile(`(?m)^clickhouse-go-v1 +insert +\S+ +1 +` + batch + ` .* 200,000 +ok +0 +2$`)
		if !row.MatchString(stdout) {
			t.Errorf("no row for --batch %s with 2 repetitions pooled (200,000 rows, all counted):\n%s", batch, stdout)
		}
	}
	doc, err := result.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range doc.Runs {
		order = append(order, fmt.Sprintf("rep %d batch %s", r.Repeat, r.Params["batch"]))
		if r.Rows != 100000 || r.Errors != 0 || r.Extra["rows_counted"] != 100000 {
			t.Errorf("rep %d batch %s: %d rows, %d errors, %.0f counted; want 100000, 0, 100000", r.Repeat, r.Params["batch"], r.Rows, r.Errors, r.Extra["rows_counted"])
		}
	}
	want := []string{"rep 1 batch 10000", "rep 1 batch 100000", "rep 2 batch 10000", "rep 2 batch 100000"}
	if !slices.Equal(order, want) {
		t.Errorf("runs in the order %q, want %q (interleaved)", order, want)
	}
}
