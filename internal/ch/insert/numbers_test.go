package insert

import (
	"context"
	"strings"
	"testing"
)

// TestNumbersTable: seed 002's ten numeric columns are a table shape of
// their own. dbmeter creates the table on 18.16, finds it again without
// --create, refuses an event table as one; and every Go path's rows land
// and reconcile: the paths 18.16 supports against it, the modern ones
// against the protocol stand-in. (The external clients: external_test.go.)
func TestNumbersTable(t *testing.T) {
	t.Run("18.16", func(t *testing.T) {
		d := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
		ctx := context.Background()
		a := openAdmin(t, d)
		db := scratchDB(t, a)
		table := Table{Database: db, Name: "numbers"}
		if err := a.Prepare(ctx, table, NumbersTable, true, 0, ""); err != nil {
			t.Fatalf("create: %v", err)
		}
		if err := a.Prepare(ctx, table, NumbersTable, false, 0, ""); err != nil {
			t.Errorf("the table just made is not one of numbers: %v", err)
		}
		events := Table{Database: db, Name: "event"}
		if err := a.Prepare(ctx, events, EventTable, true, 0, ""); err != nil {
			t.Fatal(err)
		}
		err := a.Prepare(ctx, events, NumbersTable, false, 0, "")
		if !IsTableError(err) || !strings.Contains(err.Error(), "f32 missing") {
			t.Errorf("an event table taken as numbers: %v; want a table error naming the missing columns", err)
		}
		version := versionOf(t, d)
		for _, name := range Names() {
			if c := registered(name); c.External != nil || version.Less(c.MinServer) {
				continue
			}
			t.Run(name, func(t *testing.T) { insertRows(t, a, d, table, NumbersTable, name, perInsert(name)) })
		}
	})
	t.Run("stand-in", func(t *testing.T) {
		_, d := startStandIn(t, false, "")
		a := openAdmin(t, d)
		table := Table{Database: DefaultDatabase, Name: "numbers"}
		if err := a.Prepare(context.Background(), table, NumbersTable, true, 0, ""); err != nil {
			t.Fatal(err)
		}
		for _, name := range Names() {
			if registered(name).External != nil {
				continue
			}
			t.Run(name, func(t *testing.T) { insertRows(t, a, d, table, NumbersTable, name, perInsert(name)) })
		}
	})
}

// perInsert streams two blocks through one INSERT where the client can.
func perInsert(name string) int {
	if registered(name).Streams {
		return 2
	}
	return 1
}
