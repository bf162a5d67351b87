package clients

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/extworker"
)

// needWorker skips (or, under DBMETER_E2E=1, whose deps.sh installs PHP,
// SeasClick and clickhouse-driver, fails) t when the external client's
// language or library is missing, as its worker's hello says.
func needWorker(t *testing.T, name string) {
	t.Helper()
	w := map[string]ch.Worker{"php-seasclick": ch.SeasClick, "python-clickhouse-driver": ch.ClickHouseDriver}[name]
	argv, err := w.Argv(t.TempDir(), "", os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := extworker.Probe(context.Background(), extworker.Spec{Name: name, Argv: argv, StartTimeout: 10 * time.Second}); err != nil {
		if os.Getenv("DBMETER_E2E") == "1" {
			t.Fatalf("DBMETER_E2E=1 but %s cannot run (scripts/deps.sh installs it): %v", name, err)
		}
		t.Skipf("%s cannot run here: %v", name, err)
	}
}
