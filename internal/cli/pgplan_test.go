package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// `pg --driver pgx,pq --repeat 5` interleaves the drivers: every
// repetition runs each driver once, and the document lists the runs in the
// order they ran, each with its repetition. Two such runs compare with a
// verdict and a p-value for every figure, not "n too small".
func TestPGRepeatInterleavesDrivers(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	if code, _, stderr := runPGCmd(t, "-i", "-s", "1", "--dsn", dsn); code != 0 {
		t.Fatalf("-i: exit %d: %s", code, stderr)
	}
	dir := t.TempDir()
	var docs []string
	for _, name := range []string{"a.json", "b.json"} {
		path := filepath.Join(dir, name)
		code, stdout, stderr := runPGCmd(t, "-n", "-S", "-c", "8", "--driver", "pgx,pq", "--repeat", "5", "-T", "1", "--dsn", dsn, "--json", path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if strings.Contains(stdout, "transaction type:") {
			t.Errorf("a pgbench block per repetition instead of one pooled table:\n%s", stdout)
		}
		// The pg table, not the per-repetition table of where the time
		// goes after it.
		pgTable, _, _ := strings.Cut(stdout, "where the time goes")
		if !strings.Contains(pgTable, "5 repetitions pooled") || strings.Count(pgTable, "select-only") != 2 {
			t.Errorf("want one row per driver, its 5 repetitions pooled:\n%s", stdout)
		}
		doc, err := result.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, r := range doc.Runs {
			order = append(order, fmt.Sprintf("%s#%d", r.Target[strings.LastIndex(r.Target, "/")+1:], r.Repeat))
		}
		want := "pgx#1 pq#1 pgx#2 pq#2 pgx#3 pq#3 pgx#4 pq#4 pgx#5 pq#5"
		if got := strings.Join(order, " "); got != want {
			t.Errorf("runs in the order %s, want %s", got, want)
		}
		docs = append(docs, path)
	}
	code, stdout, stderr := run(t, "compare", docs[0], docs[1])
	if code > 1 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "n too small") || !strings.Contains(stdout, "p=") {
		t.Errorf("compare gives no p-value:\n%s", stdout)
	}
}

// `pg -S -c 1,4,8` is a sweep: one run per value of -c, each recording its
// own, in one table with the clients as a column.
func TestPGSweepClients(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	if code, _, stderr := runPGCmd(t, "-i", "-s", "1", "--dsn", dsn); code != 0 {
		t.Fatalf("-i: exit %d: %s", code, stderr)
	}
	path := filepath.Join(t.TempDir(), "sweep.json")
	code, stdout, stderr := runPGCmd(t, "-n", "-S", "-c", "1,4,8", "-T", "1", "--dsn", dsn, "--json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var clients []string
	for _, r := range doc.Runs {
		clients = append(clients, fmt.Sprintf("%s/%d", r.Params["client"], r.Workers))
	}
	if got := strings.Join(clients, " "); got != "1/1 4/4 8/8" {
		t.Errorf("runs with -c/workers %s, want 1/1 4/4 8/8", got)
	}
	if n := strings.Count(stdout, "pg: transactions per second and latency"); n != 1 {
		t.Errorf("%d tables, want one:\n%s", n, stdout)
	}
	if !strings.Contains(stdout, "clients") {
		t.Errorf("no clients column:\n%s", stdout)
	}
}
