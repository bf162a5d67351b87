package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/servertest"
)

type faultRun struct {
	Errors     int64            `json:"errors"`
	Ops        int64            `json:"ops"`
	ErrorKinds map[string]int64 `json:"error_kinds"`
	Intervals  []struct {
		TS     float64 `json:"t_s"`
		Ops    int64   `json:"ops"`
		Errors int64   `json:"errors"`
	} `json:"intervals"`
	Extra map[string]float64 `json:"extra"`
}

// outage runs dbmeter with args in the background, stops the server named
// by which ("pg" or "ch") `after` into the measured window (its first
// progress line: setting up a data set takes long on a loaded machine),
// starts it again `down` later, and returns the exit code, stderr and the
// result document's runs.
func outage(t *testing.T, env map[string]string, which string, after, down time.Duration, args ...string) (int, string, []faultRun) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(os.Args[0], append(args, "--json", path, "--quiet")...)
	cmd.Env = append(os.Environ(), "DBMETER_TEST_MAIN=1")
	var stderr servertest.LockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if out := stderr.String(); strings.Contains(out, "ops/s") || strings.Contains(out, "progress:") {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no progress line within 2 minutes: %s", stderr.String())
		}
	}
	time.Sleep(after)
	serviceCtl(t, env, "stop", which)
	time.Sleep(down)
	serviceCtl(t, env, "start", which)
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no result document after the outage (exit %d, stderr %s): %v", code, stderr.String(), err)
	}
	var doc struct{ Runs []faultRun }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("result document: %v", err)
	}
	if len(doc.Runs) == 0 {
		t.Fatalf("no runs in the result (stderr %s)", stderr.String())
	}
	return code, stderr.String(), doc.Runs
}

// checkSurvived asserts that the run counted the outage as errors, shows it
// as a gap in its intervals, and went on measuring once the server was back.
func checkSurvived(t *testing.T, code int, stderr string, r faultRun) {
	t.Helper()
	t.Logf("exit %d, ops %d, errors %d %v, extra %v", code, r.Ops, r.Errors, r.ErrorKinds, r.Extra)
	if code != 1 {
		t.Errorf("exit %d, want 1 (a run with errors); stderr: %s", code, stderr)
	}
	if r.Errors == 0 || r.ErrorKinds["connection"]+r.ErrorKinds["timeout"] == 0 {
		t.Errorf("errors %d by kind %v: want the outage counted as connection errors", r.Errors, r.ErrorKinds)
	}
	gap, recovered := false, false
	for i, iv := range r.Intervals {
		if iv.Ops == 0 {
			gap = true
		}
		if gap && iv.Ops > 0 && i >= len(r.Intervals)-3 {
			recovered = true
		}
	}
	if !gap || !recovered {
		t.Errorf("intervals %+v: want a gap with no operations, then operations again before the end", r.Intervals)
	}
}

// Every PostgreSQL driver lives through a server that stops and comes back.
func TestPGOutageMidRun(t *testing.T) {
	t.Parallel()
	env := privateServices(t)
	dsn := env["DBMETER_PG_DSN"]
	if code, _, stderr := dbmeter(t, nil, "pg", "--dsn", dsn, "-i", "-s", "1", "--quiet"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	for _, driver := range []string{"pgx", "pgx-stdlib", "pq"} {
		t.Run(driver, func(t *testing.T) {
			code, stderr, runs := outage(t, env, "pg", 3*time.Second, 3*time.Second,
				"pg", "--dsn", dsn, "--driver", driver, "-c", "2", "-T", "14", "-P", "1", "-S", "-n")
			checkSurvived(t, code, stderr, runs[0])
		})
	}
}

func TestCHQueryOutageMidRun(t *testing.T) {
	t.Parallel()
	env := privateServices(t)
	dsn := env["DBMETER_CLICKHOUSE_LEGACY_DSN"]
	code, stderr, runs := outage(t, env, "ch", 3*time.Second, 3*time.Second,
		"ch", "query", "--dsn", dsn, "--clients", "clickhouse-go-v1", "--create", "--preset", "count",
		"--rate", "20", "--duration", "30s", "--progress", "1s", "--no-warmup")
	checkSurvived(t, code, stderr, runs[0])
}

// An insert whose acknowledgement was lost with the server may or may not
// have landed: the row check must reconcile acknowledged rows exactly and
// count the doubtful ones apart, never twice and never silently.
func TestCHInsertOutageReconciles(t *testing.T) {
	t.Parallel()
	env := privateServices(t)
	dsn := env["DBMETER_CLICKHOUSE_LEGACY_DSN"]
	code, stderr, runs := outage(t, env, "ch", 3*time.Second, 3*time.Second,
		"ch", "insert", "--dsn", dsn, "--clients", "clickhouse-go-v1", "--create", "--batch", "2000",
		"--duration", "30s", "--progress", "1s")
	r := runs[0]
	checkSurvived(t, code, stderr, r)
	acked, counted, uncertain := r.Extra["rows_acknowledged"], r.Extra["rows_counted"], r.Extra["rows_uncertain"]
	if counted < acked || counted > acked+uncertain {
		t.Errorf("rows counted %v, acknowledged %v, uncertain %v: want acknowledged ≤ counted ≤ acknowledged + uncertain", counted, acked, uncertain)
	}
	if r.ErrorKinds["lost_rows"] != 0 || r.ErrorKinds["extra_rows"] != 0 {
		t.Errorf("error kinds %v: the row check did not reconcile", r.ErrorKinds)
	}
}
