package chtest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/extworker"
)

// NeedWorker skips t when the reference worker w of the client name cannot
// run here (its language or library is missing, as its hello says), or
// fails it under DBMETER_E2E=1: make test's scripts/deps.sh installs PHP,
// SeasClick and clickhouse-driver.
func NeedWorker(t testing.TB, name string, w ch.Worker) {
	t.Helper()
	argv, err := w.Argv(t.TempDir(), "", os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	_, err = extworker.Probe(context.Background(), extworker.Spec{Name: name, Argv: argv, StartTimeout: 10 * time.Second})
	switch {
	case err == nil:
	case os.Getenv("DBMETER_E2E") == "1":
		t.Fatalf("DBMETER_E2E=1 but %s cannot run (scripts/deps.sh installs it): %v", name, err)
	default:
		t.Skipf("%s cannot run here: %v", name, err)
	}
}
