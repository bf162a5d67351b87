package cli

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

func runPGCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), Env{
		Args: append([]string{"pg"}, args...), Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" },
	})
	return code, out.String(), errb.String()
}

// pgbenchRun runs the real pgbench and returns its tps and transactions.
func pgbenchRun(t *testing.T, dsn string, args ...string) (tps float64, txns int64) {
	t.Helper()
	bin := servertest.Tool(t, "pgbench", "install postgresql-client")
	out, err := exec.Command(bin, append(args, dsn)...).CombinedOutput()
	if err != nil {
		t.Fatalf("pgbench %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	m := regexp.MustCompile(`(?m)^tps = ([0-9.]+)`).FindSubmatch(out)
	n := regexp.MustCompile(`(?m)^number of transactions actually processed: ([0-9]+)`).FindSubmatch(out)
	f := regexp.MustCompile(`(?m)^number of failed transactions: ([0-9]+)`).FindSubmatch(out)
	if m == nil || n == nil || f == nil || string(f[1]) != "0" {
		t.Fatalf("pgbench %s: unexpected output:\n%s", strings.Join(args, " "), out)
	}
	tps, _ = strconv.ParseFloat(string(m[1]), 64)
	txns, _ = strconv.ParseInt(string(n[1]), 10, 64)
	return tps, txns
}

func pgSums(t *testing.T, dsn string) (history, deltas, abalance int64) {
	t.Helper()
	ctx := context.Background()
	conn, err := server.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, `select (select count(*) from pgbench_history),
		(select coalesce(sum(delta), 0) from pgbench_history), (select sum(abalance) from pgbench_accounts)`).Scan(&history, &deltas, &abalance); err != nil {
		t.Fatal(err)
	}
	return
}

// TestPGCrossCheckPgbench runs pgbench and dbmeter back to back on the same
// database: the same transactions must do the same work, and dbmeter's TPS
// must be in a sanity band around pgbench's. This checks semantics, not
// performance: the band is wide because the machine is shared.
func TestPGCrossCheckPgbench(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	if code, _, stderr := runPGCmd(t, "-i", "-s", "1", "--dsn", dsn); code != 0 {
		t.Fatalf("dbmeter pg -i: exit %d: %s", code, stderr)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"select-only prepared", []string{"-S", "-M", "prepared"}},
		{"tpcb-like", []string{"-M", "extended"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			common := append([]string{"-n", "-c", "2", "-j", "1", "-T", "3"}, tc.args...)
			h0, _, _ := pgSums(t, dsn)
			pgTPS, pgTxns := pgbenchRun(t, dsn, common...)
			h1, _, _ := pgSums(t, dsn)
			jsonPath := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".json")
			code, stdout, stderr := runPGCmd(t, append(common, "--dsn", dsn, "--json", jsonPath, "--driver", "pgx,pq")...)
			if code != 0 {
				t.Fatalf("dbmeter pg %v: exit %d: %s", common, code, stderr)
			}
			if !strings.Contains(stdout, "number of transactions actually processed") || !strings.Contains(stdout, "tps = ") {
				t.Errorf("dbmeter's report lacks pgbench's summary block:\n%s", stdout)
			}
			doc, err := result.ReadFile(jsonPath)
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Runs) != 2 {
				t.Fatalf("%d runs in the document, want one per driver", len(doc.Runs))
			}
			var ours int64
			for _, r := range doc.Runs {
				if r.Errors != 0 || r.Ops == 0 {
					t.Fatalf("%s: %d transactions, %d errors", r.Target, r.Ops, r.Errors)
				}
				// Speed is compared by scripts/pgbench-compare.sh, never
				// asserted here: this machine is shared and noisy.
				t.Logf("%s: dbmeter %.0f tps, pgbench %.0f tps, ratio %.2f", r.Target, r.OpsPerS, pgTPS, r.OpsPerS/pgTPS)
				ours += r.Ops
			}
			h2, deltas, abalance := pgSums(t, dsn)
			if tc.name == "tpcb-like" {
				if h1-h0 != pgTxns {
					t.Errorf("pgbench: %d history rows for %d transactions", h1-h0, pgTxns)
				}
				if h2-h1 != ours {
					t.Errorf("dbmeter: %d history rows for %d transactions counted", h2-h1, ours)
				}
			} else if h2 != h1 || h1 != h0 {
				t.Errorf("select-only wrote history rows: %d, %d, %d", h0, h1, h2)
			}
			if abalance != deltas {
				t.Errorf("sum(abalance) = %d, sum(delta) = %d: some transaction's update was lost or doubled", abalance, deltas)
			}
		})
	}
}

func pipeFile(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "pipe.sql")
	os.WriteFile(p, []byte("\\startpipeline\nSELECT 1;\n\\endpipeline\n"), 0o644)
	return p
}

// TestPGBadInput: each mistake is one line, the right exit code, and no
// secret on the screen.
func TestPGBadInput(t *testing.T) {
	dsn := servertest.Env(t, "DBMETER_PG_DSN")
	u, _ := url.Parse(dsn)
	password, _ := u.User.Password()
	wrong := *u
	wrong.User = url.UserPassword(u.User.Username(), "not-the-password")
	refused := *u
	refused.Host = "127.0.0.1:1"
	nodb := *u
	nodb.Path = "/dbmeter_no_such_db"
	empty := servertest.PostgresDB(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"wrong password", []string{"--dsn", wrong.String()}, 1, "password authentication failed"},
		{"unreachable host", []string{"--dsn", refused.String()}, 1, "connection refused"},
		{"missing database", []string{"--dsn", nodb.String()}, 1, `database "dbmeter_no_such_db" does not exist`},
		{"missing tables", []string{"--dsn", empty}, 1, "pgbench tables missing"},
		{"-j above -c", []string{"-c", "2", "-j", "4", "--dsn", dsn}, 2, "-j (4) must not exceed -c (2)"},
		{"unknown -b", []string{"-b", "tpcc", "--dsn", dsn}, 2, `no built-in script "tpcc"`},
		{"unknown driver", []string{"--driver", "odbc", "--dsn", dsn}, 2, `unknown driver "odbc"`},
		{"unknown mode", []string{"-M", "fast", "--dsn", dsn}, 2, `unknown query mode "fast"`},
		{"bad weight", []string{"-b", "select-only@x", "--dsn", dsn}, 2, "weight after @"},
		{"-T and -t", []string{"-T", "1", "-t", "1", "--dsn", dsn}, 2, "contradict"},
		{"missing script file", []string{"-f", "/nonexistent.sql", "--dsn", dsn}, 2, "/nonexistent.sql"},
		{"dsn and -h", []string{"-h", "x", "--dsn", dsn}, 2, "not both"},
		{"bad seed", []string{"--random-seed", "-1", "--dsn", dsn}, 2, "unrecognized random seed option"},
		{"unlimited tries with -t", []string{"--max-tries", "0", "--dsn", dsn}, 2, "--latency-limit or a duration"},
		{"sampling without -l", []string{"--sampling-rate", "0.5", "--dsn", dsn}, 2, "need -l"},
		{"sampling and aggregation", []string{"-l", "--sampling-rate", "0.5", "--aggregate-interval", "1", "--dsn", dsn}, 2, "cannot be used at the same time"},
		{"bad sampling rate", []string{"-l", "--sampling-rate", "2", "--dsn", dsn}, 2, "(0, 1]"},
		{"pipeline in simple mode", []string{"-f", pipeFile(t), "--dsn", dsn}, 2, "cannot use pipeline mode with the simple query protocol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.name != "-T and -t" {
				args = append([]string{"-t", "1"}, args...)
			}
			code, stdout, stderr := runPGCmd(t, args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tt.want) {
				t.Errorf("stderr %q, want one line containing %q", stderr, tt.want)
			}
			if password != "" && (strings.Contains(stderr, password) || strings.Contains(stdout, password)) {
				t.Errorf("the password appears in the output")
			}
		})
	}
}

// TestPGScriptFileErrors: a script error pgbench finds before connecting is
// refused before anything connects, in one line with the file and line.
func TestPGScriptFileErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{"\\set aid random(1, 10)\nSELECT :aid;\n\\sleep 1 hour\n", " line 3: \\sleep: unrecognized time unit"},
		{"\\if 1\nSELECT 1;\n", " line 2: \\if without matching \\endif"},
		{"\\set x nosuch(1)\n", " line 1: \\set x: unexpected function name (nosuch)"},
	} {
		path := filepath.Join(t.TempDir(), "bad.sql")
		os.WriteFile(path, []byte(tc.src), 0o644)
		code, _, stderr := runPGCmd(t, "-f", path, "--dsn", "postgres://u@127.0.0.1:1/db")
		if code != 2 || !strings.Contains(stderr, path+tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("exit %d, stderr %q; want 2 and one line containing %q", code, stderr, tc.want)
		}
	}
}

// sleepSetup is a database with the pgbench tables, a directory for the
// test's files and in it a script whose transactions last at least 20 ms.
func sleepSetup(t *testing.T) (dsn, dir, script string) {
	dsn = servertest.PostgresDB(t)
	if code, _, stderr := runPGCmd(t, "-i", "-s", "1", "--dsn", dsn); code != 0 {
		t.Fatalf("-i: exit %d: %s", code, stderr)
	}
	dir = t.TempDir()
	script = filepath.Join(dir, "s.sql")
	os.WriteFile(script, []byte("\\set aid random(1, 100000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n\\sleep 20 ms\n"), 0o644)
	return dsn, dir, script
}

// TestPGRunOptions: pgbench's run options show in the summary and the files
// as pgbench shows them: -C, -r, --max-tries, -l, -L, and a \sleep counted
// in the latency.
func TestPGRunOptions(t *testing.T) {
	dsn, dir, path := sleepSetup(t)
	prefix := filepath.Join(dir, "txlog")
	jsonPath := filepath.Join(dir, "r.json")
	code, stdout, stderr := runPGCmd(t, "-n", "-c", "2", "-j", "2", "-t", "5", "-C", "-r", "--max-tries", "2", "-l", "--log-prefix", prefix,
		"-L", "10", "-f", path, "--dsn", dsn, "--json", jsonPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"maximum number of tries: 2", "number of transactions actually processed: 10/10",
		"average connection time = ", "(including reconnection times)", "statement latencies in milliseconds, failures and retries:",
		`\sleep 20 ms`, "number of transactions retried: 0",
		// every transaction sleeps 20 ms: all above -L 10, in pgbench's words
		"number of transactions above the 10.0 ms latency limit: 10/10 (100.000%)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, stdout)
		}
	}
	doc, err := result.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if r := doc.Runs[0]; r.Params[result.SettingLatencyLimit] != "10" || r.Extra["late_ops"] != 10 {
		t.Errorf("-L 10: the run records latency-limit %q and %v late transactions, want \"10\" and 10",
			r.Params[result.SettingLatencyLimit], r.Extra["late_ops"])
	}
	m := regexp.MustCompile(`latency average = ([0-9.]+) ms`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no latency average in:\n%s", stdout)
	}
	if avg, _ := strconv.ParseFloat(m[1], 64); avg < 20 {
		t.Errorf("latency average %.3f ms: the 20 ms \\sleep is not in it", avg)
	}
	files, _ := filepath.Glob(prefix + ".*")
	lines := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		lines += strings.Count(string(data), "\n")
	}
	if len(files) != 2 || lines != 10 {
		t.Errorf("-l wrote %d lines in %d files, want 10 in 2 (one per thread)", lines, len(files))
	}
}

// TestPGLatencyLimitSkips: with -R, -L also skips the transactions already
// that late when a client takes them up, and the summary counts them as
// pgbench does; without -L nothing is skipped or counted late, and the run
// records no limit (0). One client doing at most 50 transactions/s (each
// sleeps 20 ms) is asked for 200/s with -L, so the queue is late at once,
// and for 20/s without (a queue that never empties would leave transactions
// unfinished at the end).
func TestPGLatencyLimitSkips(t *testing.T) {
	dsn, dir, path := sleepSetup(t)
	for _, tc := range []struct {
		name   string
		args   []string
		limit  string // the setting recorded
		counts bool   // the skipped and late lines printed, skipped_ops > 0
	}{
		{"-R with -L", []string{"-R", "200", "-L", "5"}, "5", true},
		{"-R alone", []string{"-R", "20"}, "0", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jsonPath := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".json")
			args := append([]string{"-n", "-c", "1", "-T", "2", "-f", path, "--dsn", dsn, "--json", jsonPath}, tc.args...)
			code, stdout, stderr := runPGCmd(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			doc, err := result.ReadFile(jsonPath)
			if err != nil {
				t.Fatal(err)
			}
			r := doc.Runs[0]
			if got := r.Params[result.SettingLatencyLimit]; got != tc.limit {
				t.Errorf("latency-limit recorded as %q, want %q", got, tc.limit)
			}
			skippedLine := regexp.MustCompile(`(?m)^number of transactions skipped: [1-9][0-9]* \([0-9.]+%\)$`).MatchString(stdout)
			lateLine := strings.Contains(stdout, "number of transactions above the 5.0 ms latency limit: ")
			if skippedLine != tc.counts || lateLine != tc.counts || (r.Extra["skipped_ops"] > 0) != tc.counts {
				t.Errorf("skipped line %v, late line %v, skipped_ops %v; want the lines and skips %v:\n%s",
					skippedLine, lateLine, r.Extra["skipped_ops"], tc.counts, stdout)
			}
		})
	}
}

// The shards of a sharded run are the clients of one run: :client_id runs
// on across them, and together they draw exactly the random numbers one
// unsharded run of all the clients draws.
func TestPGShardsDrawWhatOneRunDraws(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	script := filepath.Join(t.TempDir(), "draw.sql")
	os.WriteFile(script, []byte("\\set c debug(:client_id)\n\\set x debug(random(1, 1000000000))\n"), 0o644)
	draws := func(args ...string) []string {
		t.Helper()
		code, _, stderr := runPGCmd(t, append([]string{"--dsn", dsn, "-n", "-c", "4", "-t", "3", "--random-seed", "5432", "-f", script, "--quiet"}, args...)...)
		if code != 0 {
			t.Fatalf("pg %v: exit %d: %s", args, code, stderr)
		}
		var out []string
		for _, l := range strings.Split(stderr, "\n") {
			if strings.Contains(l, "debug(") {
				out = append(out, l)
			}
		}
		return out
	}
	one := draws()
	shards := append(draws("--shard", "0/2"), draws("--shard", "1/2")...)
	slices.Sort(one)
	slices.Sort(shards)
	if len(one) != 24 || !slices.Equal(one, shards) {
		t.Errorf("one run drew %d values, the shards %d; they differ:\n%v\n%v", len(one), len(shards), one, shards)
	}
}
