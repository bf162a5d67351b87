package cli

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// pgRunDoc runs dbmeter pg with args and --json, and returns its one run.
func pgRunDoc(t *testing.T, args ...string) (result.Run, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runPGCmd(t, append(args, "--json", path)...)
	if code != 0 {
		t.Fatalf("dbmeter pg %v: exit %d: %s", args, code, stderr)
	}
	doc, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(doc.Runs))
	}
	return doc.Runs[0], stdout
}

// TestPGServerStats: the server's own figures cover the same transactions
// dbmeter counted. select-only runs one statement per transaction, so its
// calls are the transactions; the database deltas and the wait-event
// profile are there, its shares summing to 1.
func TestPGServerStats(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	if code, _, stderr := runPGCmd(t, "-i", "-s", "1", "--dsn", dsn); code != 0 {
		t.Fatalf("dbmeter pg -i: exit %d: %s", code, stderr)
	}
	for _, drv := range driver.Names() {
		t.Run(drv, func(t *testing.T) {
			r, stdout := pgRunDoc(t, "-S", "-c", "4", "-T", "2", "--dsn", dsn, "--driver", drv)
			s := r.ServerStats
			if s == nil || len(s.Unavailable) > 0 {
				t.Fatalf("server_stats %+v; want them read (the services script loads pg_stat_statements)", s)
			}
			var calls int64
			for _, st := range s.Statements {
				calls += st.Calls
			}
			if len(s.Statements) != 1 || calls != r.Ops+r.Errors {
				t.Errorf("%d statements with %d calls for %d transactions; want one statement called once per transaction: %+v", len(s.Statements), calls, r.Ops+r.Errors, s.Statements)
			}
			if s.Database["xact_commit"] < float64(r.Ops) {
				t.Errorf("pg_stat_database commits %v for %d transactions", s.Database["xact_commit"], r.Ops)
			}
			var sum float64
			for _, v := range s.WaitEvents.Shares {
				sum += v
			}
			if s.WaitEvents.Samples == 0 || math.Abs(sum-1) > 1e-9 {
				t.Errorf("wait events %+v: shares sum to %v", s.WaitEvents, sum)
			}
			if !strings.Contains(stdout, "where the time goes") {
				t.Errorf("the summary lacks the server's figures:\n%s", stdout)
			}
		})
	}
}

// TestPGServerTimeJoin: a transaction that sleeps 50 ms on the server
// shows a server time of at least 50 ms, which is at most the latency,
// and a remainder small beside it.
func TestPGServerTimeJoin(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	script := filepath.Join(t.TempDir(), "sleep.sql")
	if err := os.WriteFile(script, []byte("SELECT pg_sleep(0.05);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ := pgRunDoc(t, "-f", script, "-c", "1", "-t", "10", "--dsn", dsn)
	server := r.ServerStats.ServerNsPerOp
	if server < 50e6 || server > r.Latency.Mean || r.Latency.Mean-server > server/2 {
		t.Errorf("server time per transaction %.2f ms against latency %.2f ms; want ≥ 50 ms and the rest small", server/1e6, r.Latency.Mean/1e6)
	}
}

// TestPGServerStatsUnavailable: on a database without pg_stat_statements
// the run says in one line how to enable it and measures the rest;
// --no-server-stats reads nothing.
func TestPGServerStatsUnavailable(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	ctx := context.Background()
	conn, err := server.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, "DROP EXTENSION IF EXISTS pg_stat_statements")
	conn.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "one.sql")
	if err := os.WriteFile(script, []byte("SELECT 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, stdout := pgRunDoc(t, "-f", script, "-c", "1", "-t", "20", "--dsn", dsn)
	s := r.ServerStats
	if r.Ops != 20 || s == nil || len(s.Unavailable) != 1 || !strings.Contains(s.Unavailable[0], "CREATE EXTENSION pg_stat_statements") || s.Database == nil {
		t.Errorf("ops %d, server_stats %+v; want the run measured, one line on enabling pg_stat_statements and the database deltas", r.Ops, s)
	}
	if !strings.Contains(stdout, "shared_preload_libraries") {
		t.Errorf("the summary does not say how to enable it:\n%s", stdout)
	}
	if r, _ := pgRunDoc(t, "-f", script, "-c", "1", "-t", "5", "--dsn", dsn, "--no-server-stats"); r.ServerStats != nil {
		t.Errorf("--no-server-stats: server_stats %+v", r.ServerStats)
	}
}
