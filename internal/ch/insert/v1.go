package insert

import (
	"bytes"
	"context"
	"database/sql"
	sqldriver "database/sql/driver"
	"fmt"
	"strconv"
	"time"

	"github.com/ClickHouse/clickhouse-go/lib/binary"
	"github.com/ClickHouse/clickhouse-go/lib/column"
	"github.com/ClickHouse/clickhouse-go/lib/data"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// v1DSN is the DSN in v1's form with dbmeter's settings: no_delay is v1's
// TCP_NODELAY switch (v1 takes no dialer), and block_size, the rows after
// which v1 flushes a block in the middle of an Exec loop, is set above the
// batch so that a batch goes out as one block, at Commit.
func v1DSN(o Options) string {
	d := o.DSN
	d.Settings = cloneValues(d.Settings)
	d.Settings.Set("no_delay", strconv.FormatBool(o.NoDelay))
	d.Settings.Set("block_size", strconv.Itoa(max(o.Batch+1, 1_000_000)))
	return d.V1()
}

// openV1DB opens clickhouse-go v1's database/sql driver on one connection.
func openV1DB(ctx context.Context, o Options) (*sql.DB, error) {
	db, err := sql.Open(ch.V1Driver, v1DSN(o))
	if err != nil {
		return nil, fmt.Errorf("connect with clickhouse-go v1 to %s: %w", o.DSN.Addr, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect with clickhouse-go v1 to %s: %w", o.DSN.Addr, err)
	}
	return db, nil
}

// openV1 is clickhouse-go v1 through database/sql, the seed's way for
// servers v2 cannot talk to.
func openV1(ctx context.Context, o Options) (ch.Inserter, error) {
	db, err := openV1DB(ctx, o)
	if err != nil {
		return nil, err
	}
	return &txInserter{begin: beginSQL(db), close: db.Close}, nil
}

// v1Revision is the protocol revision v1 speaks; the round trips encode
// with it.
const v1Revision = data.ClickHouseRevision

// v1RoundTrip fills a v1 block with fill, encodes it as v1 would send it
// and decodes it back with v1's reader.
func v1RoundTrip(b *ch.Block, fill func(blk *data.Block) error) (*ch.Block, error) {
	blk := &data.Block{NumColumns: uint64(len(b.Columns))}
	for _, c := range b.Columns {
		col, err := column.Factory(c.Name, c.Type, time.UTC)
		if err != nil {
			return nil, err
		}
		blk.Columns = append(blk.Columns, col)
	}
	if err := fill(blk); err != nil {
		return nil, err
	}
	info := &data.ServerInfo{Revision: v1Revision, Timezone: time.UTC}
	var buf bytes.Buffer
	if err := blk.Write(info, binary.NewEncoder(&buf)); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	var got data.Block
	if err := got.Read(info, binary.NewDecoder(&buf)); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	out := &ch.Block{Rows: int(got.NumRows)}
	for i, col := range got.Columns {
		c := ch.Column{Name: col.Name(), Type: col.CHType()}
		switch c.Type {
		case "String":
			c.Data = typed[string](got.Values[i])
		case "Int32":
			c.Data = typed[int32](got.Values[i])
		case "Int64":
			c.Data = typed[int64](got.Values[i])
		default:
			return nil, fmt.Errorf("decoded column %d has type %s", i, c.Type)
		}
		out.Columns = append(out.Columns, c)
	}
	return out, nil
}

func typed[T any](vs []any) []T {
	out := make([]T, len(vs))
	for i, v := range vs {
		out[i], _ = v.(T)
	}
	return out
}

// roundTripV1Row appends rows as v1's prepared INSERT does on each Exec.
func roundTripV1Row(b *ch.Block) (*ch.Block, error) {
	return v1RoundTrip(b, func(blk *data.Block) error {
		var row []any
		args := make([]sqldriver.Value, len(b.Columns))
		for i := range b.Rows {
			row = b.Row(i, row)
			for j, v := range row {
				args[j] = v
			}
			if err := blk.AppendRow(args); err != nil {
				return err
			}
		}
		return nil
	})
}

func roundTripV1Column(b *ch.Block) (*ch.Block, error) {
	return v1RoundTrip(b, func(blk *data.Block) error { return fillV1Columns(b, blk) })
}
