package insert

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch/numbers"
)

// The table engine: MergeTree unless Null is asked for, Null only for a
// table dbmeter creates, nothing else.
func TestEngineChoice(t *testing.T) {
	tb := Table{Database: "d", Name: "t"}
	for _, c := range []struct{ engine, want, not string }{
		{"", "ENGINE = MergeTree() ORDER BY tuple()", "Null"},
		{EngineMergeTree, "ENGINE = MergeTree() ORDER BY tuple()", "Null"},
		{EngineNull, "ENGINE = Null", "ORDER BY"},
	} {
		sql := CreateSQL(tb, NumbersTable, 0, c.engine)
		if !strings.HasSuffix(sql, c.want) || strings.Contains(sql, c.not) {
			t.Errorf("engine %q: %s; want it to end in %q", c.engine, sql, c.want)
		}
	}
	base := Config{Table: tb, Batch: 10, BlocksPerInsert: 1}
	for _, c := range []struct {
		engine string
		create bool
		want   string
	}{
		{"null", true, "{Engine} must be MergeTree or Null"},
		{EngineNull, false, "add {Create}"},
	} {
		cfg := base
		cfg.Engine, cfg.Create = c.engine, c.create
		if err := cfg.validateRows(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("engine %q create %v: %v, want %q", c.engine, c.create, err, c.want)
		}
	}
	for _, e := range []string{"", EngineMergeTree, EngineNull} {
		cfg := base
		cfg.Engine, cfg.Create = e, true
		if err := cfg.validateRows(); err != nil {
			t.Errorf("engine %q with create: %v", e, err)
		}
	}
}

// The byte shape is one UInt8 column, a byte a row, the same for a seed.
func TestByteRing(t *testing.T) {
	a, b := numbers.ByteRing(3, 8170, 2), numbers.ByteRing(3, 8170, 2)
	if len(a) != 2 || a[0].Rows != 8170 || len(a[0].Columns) != 1 || a[0].Columns[0].Type != "UInt8" {
		t.Fatalf("ByteRing: %d blocks, first %+v", len(a), a[0].Columns)
	}
	x, y := a[1].Columns[0].Data.([]uint8), b[1].Columns[0].Data.([]uint8)
	if string(x) != string(y) {
		t.Error("two rings of one seed differ")
	}
}

// On 18.16 a Null table takes the rows and keeps none, and the byte shape
// fills it: what seed 002's author inserted into.
func TestNullTable(t *testing.T) {
	d := serverDSN(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", true)
	ctx := context.Background()
	a := openAdmin(t, d)
	db := scratchDB(t, a)
	for _, s := range []Schema{NumbersTable, ByteTable} {
		table := Table{Database: db, Name: s.Name}
		if err := a.Prepare(ctx, table, s, true, 0, EngineNull); err != nil {
			t.Fatalf("create a Null table of %s: %v", s.Name, err)
		}
		var engine string
		if err := a.db.QueryRowContext(ctx, "SELECT engine FROM system.tables WHERE database = ? AND name = ?", db, s.Name).Scan(&engine); err != nil || engine != "Null" {
			t.Fatalf("%s's engine: %q, %v; want Null", s.Name, engine, err)
		}
		// Made again: dbmeter's mark survives on a Null table.
		if err := a.Prepare(ctx, table, s, true, 0, EngineNull); err != nil {
			t.Fatalf("re-create the Null table of %s: %v", s.Name, err)
		}
		wl := NewWorkload(registered("clickhouse-go-v1"), Options{DSN: d, Batch: 100, NoDelay: true}, table, s.Ring(1, 100, 1), 0)
		w, err := wl.NewWorker(ctx, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = w.Do(ctx)
		if c, ok := w.(io.Closer); ok {
			c.Close()
		}
		if err != nil {
			t.Fatalf("insert into the Null table of %s: %v", s.Name, err)
		}
		if n, err := a.Count(ctx, table); err != nil || n != 0 || wl.Acked() != 100 {
			t.Errorf("%s: %d rows kept, %d acknowledged, %v; want 0 kept, 100 acknowledged", s.Name, n, wl.Acked(), err)
		}
	}
}
