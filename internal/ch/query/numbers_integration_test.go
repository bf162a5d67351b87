package query_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/chtest"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/query/clients"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
)

// TestNumbersPreset reads seed 002's table at the study's smallest and
// largest sizes, through Go clients and the external ones alike, against
// 18.16: every query returns exactly --select-rows rows.
func TestNumbersPreset(t *testing.T) {
	d := legacyDSN(t)
	ctx := context.Background()
	version, err := ch.ServerVersion(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	data := query.Dataset{Database: fmt.Sprintf("dbmeter_qn_%08x", rand.Uint32()), Events: 100, Metrics: 100, Users: 100}
	t.Cleanup(func() {
		if db, err := sql.Open(ch.V1Driver, d.Admin().V1()); err == nil {
			db.Exec("DROP DATABASE IF EXISTS " + data.Database)
			db.Close()
		}
	})
	workers := map[string]ch.Worker{"php-seasclick": ch.SeasClick, "python-clickhouse-driver": ch.ClickHouseDriver}
	for _, tc := range []struct {
		preset string
		rows   int
	}{{"numbers", 10}, {"numbers", query.NumbersRows}, {"numbers-int", 10}} {
		preset, rows := tc.preset, tc.rows
		for _, name := range []string{"clickhouse-go-v1", "http", "php-seasclick", "python-clickhouse-driver"} {
			t.Run(fmt.Sprintf("%s/%s/%d", preset, name, rows), func(t *testing.T) {
				if w, ok := workers[name]; ok {
					chtest.NeedWorker(t, name, w)
				}
				cl, err := clients.Lookup(name)
				if err != nil {
					t.Fatal(err)
				}
				cfg := load.DefaultConfig()
				cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = 20, time.Second, 0, 0
				c := query.Config{
					DSN: d, HTTPURL: os.Getenv("DBMETER_CLICKHOUSE_HTTP_URL"), Clients: []query.Named{{Name: name, Client: cl}},
					Preset: preset, SelectRows: rows, Create: true, Data: data,
					Decodes: []query.Decode{query.Row}, Load: cfg, Repeat: 1, Worker: query.Worker{Getenv: os.Getenv},
				}
				p, err := query.Prepare(ctx, "ch", c, version)
				if err != nil {
					t.Fatal(err)
				}
				var s sink
				if err := plan.Execute(ctx, p.Plan, &s); err != nil {
					t.Fatal(err)
				}
				if len(s.runs) != 1 {
					t.Fatalf("%d runs, want 1", len(s.runs))
				}
				r := s.runs[0]
				if r.Ops == 0 || r.Errors != 0 || r.Rows != r.Ops*int64(rows) {
					t.Errorf("ops %d, errors %v %v, rows %d; want every query to read %d rows", r.Ops, r.ErrorKinds, r.ErrorSamples, r.Rows, rows)
				}
			})
		}
	}
}
