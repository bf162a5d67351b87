package clients

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/ch/query"
)

// needWorker skips (or, under DBMETER_E2E=1, fails) t when the external
// client's language or library is missing.
func needWorker(t *testing.T, name string) {
	t.Helper()
	w := map[string]ch.Worker{"php-seasclick": ch.SeasClick, "python-clickhouse-driver": ch.ClickHouseDriver}[name]
	chtest.NeedWorker(t, name, w)
}

// TestExternalCompression: with compress=lz4 in the DSN, each reference
// worker's queries come compressed (SeasClick's own option is a no-op, so
// the PHP worker turns it on itself), and without it none do; the rows
// answered are the rows asked for.
func TestExternalCompression(t *testing.T) {
	for _, name := range []string{"php-seasclick", "python-clickhouse-driver"} {
		for _, compress := range []string{"", "lz4"} {
			t.Run(name+"/compress="+compress, func(t *testing.T) {
				needWorker(t, name)
				if compress != "" && name == "python-clickhouse-driver" {
					argv, err := ch.ClickHouseDriver.Argv(t.TempDir(), "", os.Getenv)
					if err != nil || exec.Command(argv[0], "-c", "import lz4, clickhouse_cityhash").Run() != nil {
						t.Skip("clickhouse-driver's lz4 extra is not installed (the insert test checks the worker's one-line refusal)")
					}
				}
				srv := dataStandIn(t, false)
				dsn := "clickhouse://" + srv.Addr() + "/default"
				if compress != "" {
					dsn += "?compress=" + compress
				}
				d, err := ch.ParseDSN(dsn)
				if err != nil {
					t.Fatal(err)
				}
				c, _ := Lookup(name)
				if err := d.Check(name, c.DSN); err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				admin, err := sql.Open(ch.V1Driver, d.V1())
				if err != nil {
					t.Fatal(err)
				}
				defer admin.Close()
				data, preset := query.DefaultDataset(), query.Presets()["numbers"]
				r, err := data.LoadRanges(ctx, admin, preset.Table, time.Hour)
				if err != nil {
					t.Fatal(err)
				}
				r.Rows = 100
				sqlText := preset.Spec(data.Database, r).SQL
				q, err := c.Open(ctx, query.Options{DSN: d, Protocol: query.Native, Decode: query.Row, Pool: query.DefaultPool(), Worker: query.Worker{Getenv: os.Getenv}})
				if err != nil {
					t.Fatal(err)
				}
				defer q.Close()
				for range 3 {
					st, err := q.Query(ctx, sqlText)
					if err != nil || st.Rows != 100 {
						t.Fatalf("query: %d rows, %v; want 100", st.Rows, err)
					}
				}
				n := 0
				for _, e := range srv.Log().Entries() {
					if e.Query == sqlText {
						n++
						if e.Compressed != (compress != "") {
							t.Errorf("query compressed %t, want %t", e.Compressed, compress != "")
						}
					}
				}
				if n != 3 {
					t.Errorf("the stand-in logged %d of the 3 queries", n)
				}
			})
		}
	}
}
