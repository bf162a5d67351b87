package clients

import (
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/chtest"
)

// needWorker skips (or, under DBMETER_E2E=1, fails) t when the external
// client's language or library is missing.
func needWorker(t *testing.T, name string) {
	t.Helper()
	w := map[string]ch.Worker{"php-seasclick": ch.SeasClick, "python-clickhouse-driver": ch.ClickHouseDriver}[name]
	chtest.NeedWorker(t, name, w)
}
