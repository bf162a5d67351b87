package insert

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/load"
)

// serverDSN gates an integration test on a server named by env: unset, the
// test skips with the reason; DBMETER_E2E=1 makes a missing server fail
// when required (the legacy server, which dev-services runs everywhere);
// DBMETER_E2E=0 skips.
func serverDSN(t *testing.T, env string, required bool) ch.DSN {
	t.Helper()
	gate := servertest.Optional
	if required {
		gate = servertest.Env
	}
	d, err := ch.ParseDSN(gate(t, env))
	if err != nil {
		t.Fatalf("%s: %v", env, err)
	}
	return d
}

// versionOf asks the server of d its version.
func versionOf(t *testing.T, d ch.DSN) ch.Version {
	t.Helper()
	v, err := ch.ServerVersion(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// scratchDB makes a uniquely named database and drops it (only it) at the
// end of the test.
func scratchDB(t *testing.T, a *Admin) string {
	t.Helper()
	name := fmt.Sprintf("dbmeter_chi_%08x", rand.Uint32())
	ctx := context.Background()
	if _, err := a.db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		if _, err := a.db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	return name
}

func openAdmin(t *testing.T, d ch.DSN) *Admin {
	t.Helper()
	a, err := OpenAdmin(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// insertRows runs client name through load.Run as the CLI does and checks
// that every row the server acknowledged is in the table.
func insertRows(t *testing.T, a *Admin, d ch.DSN, table Table, s Schema, name string, perInsert int) {
	t.Helper()
	ctx := context.Background()
	c, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	const batch, rows = 1000, 4500 // the last block is short
	ring := s.Ring(1, batch, 2)
	before, err := a.Count(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	wl := NewWorkload(c, Options{DSN: d, Batch: batch, BlocksPerInsert: perInsert, NoDelay: true}, table, ring, rows)
	cfg := load.DefaultConfig()
	cfg.Phases = Phases
	cfg.Workers, cfg.Duration, cfg.Count, cfg.Warmup, cfg.Interval = 2, 0, 5, 0, 0
	res, err := load.Run(ctx, cfg, Ops, wl.NewWorker, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	st := res.Stats(0)
	if st.Errors != 0 || st.Rows != rows {
		t.Fatalf("%s: %d errors %v, %d rows; want 0 errors, %d rows", name, st.Errors, st.ErrorKinds, st.Rows, rows)
	}
	after, err := a.Count(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if got := after - before; got != rows || wl.Acked() != rows {
		t.Errorf("%s: table gained %d rows, server acknowledged %d; want %d", name, got, wl.Acked(), rows)
	}
	ph := res.PhaseStats(0)
	if ph["build"].Count != st.Ops || ph["send"].Count != st.Ops || ph["build"].P50 <= 0 || ph["send"].P50 <= 0 {
		t.Errorf("%s: phases %+v, want both counted over the %d measured operations", name, ph, st.Ops)
	}
}

func TestLegacyServer(t *testing.T) {
	d := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
	ctx := context.Background()
	a := openAdmin(t, d)
	db := scratchDB(t, a)
	table := Table{Database: db, Name: "event"}
	if err := a.Prepare(ctx, table, EventTable, true, 5, ""); err != nil {
		t.Fatalf("create: %v", err)
	}
	version := versionOf(t, d)

	t.Run("refuses modern clients", func(t *testing.T) {
		for _, name := range Names() {
			c := registered(name)
			err := ch.CheckServer(name, version, c.MinServer)
			var tooOld *ch.TooOldError
			switch {
			case c.External != nil && err != nil:
				t.Errorf("external client %s refused for %s: %v", name, version, err)
			case c.External != nil:
			case c.MinServer == minV1 && err != nil:
				t.Errorf("%s refused for %s: %v", name, version, err)
			case c.MinServer != minV1 && !errors.As(err, &tooOld):
				t.Errorf("%s not refused for %s (min %s): %v", name, version, c.MinServer, err)
			case err != nil && (!strings.Contains(err.Error(), version.String()) || !strings.Contains(err.Error(), c.MinServer.String())):
				t.Errorf("refusal %q does not name both versions", err)
			}
		}
	})

	for _, tc := range []struct {
		name      string
		perInsert int
	}{{"clickhouse-go-v1", 1}, {"sqlx-v1", 1}, {"clickhouse-go-v1-column", 1}, {"clickhouse-go-v1-column", 2}} {
		t.Run(fmt.Sprintf("%s/blocks-per-insert=%d", tc.name, tc.perInsert), func(t *testing.T) {
			insertRows(t, a, d, table, EventTable, tc.name, tc.perInsert)
		})
	}

	t.Run("tables", func(t *testing.T) {
		// dbmeter's own table is re-created.
		if err := a.Prepare(ctx, table, EventTable, true, 0, ""); err != nil {
			t.Errorf("re-create marked table: %v", err)
		}
		if n, _ := a.Count(ctx, table); n != 0 {
			t.Errorf("re-created table has %d rows", n)
		}
		// A table someone else made is never touched...
		theirs := Table{Database: db, Name: "theirs"}
		if _, err := a.db.ExecContext(ctx, "CREATE TABLE "+theirs.String()+" (lid Int64, x String) ENGINE = MergeTree() ORDER BY lid"); err != nil {
			t.Fatal(err)
		}
		x, err := beginSQL(a.db)(ctx, "INSERT INTO "+theirs.String()+" (lid, x) VALUES")
		if err != nil {
			t.Fatal(err)
		}
		if err := x.Exec(ctx, int64(1), "keep"); err != nil {
			t.Fatal(err)
		}
		if err := x.Commit(); err != nil {
			t.Fatal(err)
		}
		for _, create := range []bool{true, false} {
			err := a.Prepare(ctx, theirs, EventTable, create, 0, "")
			if !IsTableError(err) {
				t.Errorf("Prepare(theirs, create=%v) = %v, want a table error", create, err)
			}
		}
		if err := a.Drop(ctx, theirs); !IsTableError(err) {
			t.Errorf("Drop(theirs) = %v, want a refusal", err)
		}
		if n, _ := a.Count(ctx, theirs); n != 1 {
			t.Errorf("their table has %d rows after dbmeter's refusals, want 1", n)
		}
		// ...and a missing one is named.
		err = a.Prepare(ctx, Table{Database: db, Name: "nope"}, EventTable, false, 0, "")
		if !IsTableError(err) || !strings.Contains(err.Error(), "{Create}") {
			t.Errorf("Prepare(missing) = %v, want a hint to use {Create}", err)
		}
		// A server table with no marked column is refused for what it lacks.
		err = a.Prepare(ctx, Table{Database: "system", Name: "numbers"}, EventTable, true, 0, "")
		if !IsTableError(err) || !strings.Contains(err.Error(), "it has no column with the comment") {
			t.Errorf("Prepare(system.numbers, create) = %v, want a refusal saying it has no marked column", err)
		}
	})
}

// TestModernServer runs every path against a modern server when one is
// given. None can run on the machines dbmeter is developed on, so it skips
// without DBMETER_CLICKHOUSE_MODERN_DSN even under DBMETER_E2E=1.
func TestModernServer(t *testing.T) {
	d := serverDSN(t, "DBMETER_CLICKHOUSE_MODERN_DSN", false)
	ctx := context.Background()
	a := openAdmin(t, d)
	version := versionOf(t, d)
	db := scratchDB(t, a)
	table := Table{Database: db, Name: "event"}
	if err := a.Prepare(ctx, table, EventTable, true, 0, ""); err != nil {
		t.Fatal(err)
	}
	for _, name := range Names() {
		if ch.CheckServer(name, version, registered(name).MinServer) != nil {
			continue
		}
		for _, k := range []int{1, 2} {
			if k > 1 && !registered(name).Streams {
				continue
			}
			t.Run(fmt.Sprintf("%s/blocks-per-insert=%d", name, k), func(t *testing.T) {
				insertRows(t, a, d, table, EventTable, name, k)
			})
		}
	}
}

func TestDump(t *testing.T) {
	t.Parallel()
	ring := event.Ring(1, 100, 2)
	var native, tsv strings.Builder
	if err := Dump(&native, DumpNative, ring, 100, 250); err != nil {
		t.Fatal(err)
	}
	if err := Dump(&tsv, DumpTSV, ring, 100, 250); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(tsv.String(), "\n"); n != 250 {
		t.Errorf("TSV has %d lines, want 250", n)
	}
	if native.Len() < 250*1300 {
		t.Errorf("Native dump is %d bytes for 250 rows", native.Len())
	}
	if err := Dump(&tsv, "CSV", ring, 100, 1); err == nil {
		t.Error("Dump(CSV) succeeded")
	}
}
