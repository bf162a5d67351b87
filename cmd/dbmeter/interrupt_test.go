package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// TestSignalPGKeepsServerFigures is issue 35's "done when" for pg: SIGINT
// mid-run against a real server. The run exits 130 with its partial result,
// and that result keeps the server's own figures (read on a context of
// their own after the run's was cancelled), says how long it really
// measured, and counts the transactions in flight at the interrupt as
// unfinished, not failed.
func TestSignalPGKeepsServerFigures(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	if code, _, stderr := dbmeter(t, nil, "pg", "--dsn", dsn, "-i", "-s", "1", "--quiet"); code != 0 {
		t.Fatalf("pg init: exit %d: %s", code, stderr)
	}
	path := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(os.Args[0], "pg", "--dsn", dsn, "-c", "4", "-T", "20", "-S", "--driver", "pgx,pq", "--json", path)
	cmd.Env = append(os.Environ(), "DBMETER_TEST_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	time.Sleep(6 * time.Second) // inside the first run (pgx) of two
	cmd.Process.Signal(syscall.SIGINT)
	if code := wait(t, cmd, 30*time.Second); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, stderr.String())
	}
	out := stdout.String() + stderr.String()

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no partial result: %v", err)
	}
	var doc result.Document
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 || !doc.Runs[0].Interrupted {
		t.Fatalf("runs %d, want one, interrupted\n%s", len(doc.Runs), out)
	}
	r := doc.Runs[0]
	if r.DurationS <= 0 || r.DurationS >= 15 {
		t.Errorf("JSON duration_s = %g, want the measured window (about 6 s), not -T 20", r.DurationS)
	}
	// The summary says the same, not the -T asked for.
	m := regexp.MustCompile(`duration: ([0-9.]+) s \(interrupted; -T 20 s\)`).FindStringSubmatch(out)
	if m == nil {
		t.Errorf("summary has no interrupted duration line:\n%s", out)
	} else if d, _ := strconv.ParseFloat(m[1], 64); d >= 15 || d <= 0 {
		t.Errorf("summary duration %s s, want about 6 s", m[1])
	}
	// Four clients were in the middle of a transaction: unfinished, not
	// failed.
	if failed := r.Errors - r.ErrorKinds["unfinished"]; failed != 0 {
		t.Errorf("errors %d %v: want only unfinished ones", r.Errors, r.ErrorKinds)
	}
	if !strings.Contains(out, "number of failed transactions: 0 (0.000%)") {
		t.Errorf("summary counts failed transactions:\n%s", out)
	}
	// The server's figures survive the cancelled context.
	s := r.ServerStats
	if s == nil || len(s.Statements) == 0 || s.ServerNsPerOp <= 0 {
		t.Errorf("server stats %+v: want pg_stat_statements deltas after the interrupt\n%s", s, out)
	}
	if s != nil && len(s.Unavailable) > 0 {
		t.Errorf("server stats unavailable after the interrupt: %q", s.Unavailable)
	}
	if strings.Contains(out, "pg_read_all_stats") {
		t.Errorf("an interrupt is blamed on privileges:\n%s", out)
	}
}

// TestSignalCHQueryKeepsServerFigures: the same for ch query against
// 18.16: after SIGINT, system.events and the query log are still read, no
// privilege is blamed, and the queries cut short are unfinished, not
// connection errors (clickhouse-go v1 says "short write" of the socket
// the cancellation closed).
func TestSignalCHQueryKeepsServerFigures(t *testing.T) {
	dsn := servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN")
	path := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(os.Args[0], "ch", "query", "--dsn", dsn, "--clients", "clickhouse-go-v1",
		"--query", "SELECT sum(number) FROM numbers(100000)", "--rate", "200", "--duration", "30s", "--json", path)
	cmd.Env = append(os.Environ(), "DBMETER_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	time.Sleep(6 * time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	if code := wait(t, cmd, 40*time.Second); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, stderr.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no partial result: %v", err)
	}
	var doc result.Document
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 || !doc.Runs[0].Interrupted || doc.Runs[0].Ops == 0 {
		t.Fatalf("runs %+v, want one, interrupted, with queries\n%s", doc.Runs, stderr.String())
	}
	r := doc.Runs[0]
	if failed := r.Errors - r.ErrorKinds["unfinished"]; failed != 0 {
		t.Errorf("errors %d %v: want only unfinished ones", r.Errors, r.ErrorKinds)
	}
	s := r.ServerStats
	if s == nil || len(s.Events) == 0 || s.LatencyNs == nil || s.LatencyNs.Count == 0 {
		t.Errorf("server stats %+v: want system.events and the query log after the interrupt", s)
	}
	if s != nil && len(s.Unavailable) > 0 {
		t.Errorf("server stats unavailable after the interrupt: %q", s.Unavailable)
	}
}
