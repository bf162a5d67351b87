package insert

import (
	"context"
	"fmt"
	"net/url"

	clickhousev1 "github.com/ClickHouse/clickhouse-go"
	"github.com/ClickHouse/clickhouse-go/lib/data"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// v1ColumnInserter is clickhouse-go v1's direct block API (OpenDirect,
// Block, WriteBlock): columns are written straight into the block's
// buffers, and several blocks can go through one INSERT before Commit.
// It is the fastest path v1 offers, so the fastest one for servers older
// than v2's minimum.
type v1ColumnInserter struct {
	conn   clickhousev1.Clickhouse
	o      Options
	open   bool // an INSERT is open
	blocks int
}

var (
	_ ch.Inserter  = (*v1ColumnInserter)(nil)
	_ ch.Committer = (*v1ColumnInserter)(nil)
)

func openV1Column(_ context.Context, o Options) (ch.Inserter, error) {
	conn, err := clickhousev1.OpenDirect(v1DSN(o))
	if err != nil {
		return nil, fmt.Errorf("connect with clickhouse-go v1 to %s: %w", o.DSN.Addr, err)
	}
	return &v1ColumnInserter{conn: conn, o: o}, nil
}

func (v *v1ColumnInserter) Build(_ context.Context, table string, b *ch.Block) (ch.Batch, error) {
	if !v.open {
		if _, err := v.conn.Begin(); err != nil {
			return nil, fmt.Errorf("begin: %w", err)
		}
		if _, err := v.conn.Prepare(insertSQL(table, b) + " VALUES"); err != nil {
			v.conn.Rollback()
			return nil, fmt.Errorf("prepare insert: %w", err)
		}
		v.open = true
	}
	blk, err := v.conn.Block()
	if err != nil {
		v.rollback()
		return nil, fmt.Errorf("insert block: %w", err)
	}
	if err := fillV1Columns(b, blk); err != nil {
		v.rollback()
		return nil, err
	}
	return ch.BatchFunc(func(ctx context.Context) error {
		if err := v.conn.WriteBlock(blk); err != nil {
			v.rollback()
			return fmt.Errorf("write block: %w", err)
		}
		v.blocks++
		if v.blocks < v.o.perInsert() {
			return nil
		}
		return v.Commit(ctx)
	}), nil
}

// Commit ends the open INSERT and waits for the server.
func (v *v1ColumnInserter) Commit(context.Context) error {
	if !v.open {
		return nil
	}
	v.open, v.blocks = false, 0
	if err := v.conn.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// rollback drops the open INSERT; v1 closes the connection to do so, and
// the failed operation's worker opens a new inserter.
func (v *v1ColumnInserter) rollback() {
	if v.open {
		v.conn.Rollback()
		v.open, v.blocks = false, 0
	}
}

func (v *v1ColumnInserter) Close() error {
	v.rollback()
	return v.conn.Close()
}

// fillV1Columns writes b's columns into a v1 insert block (whose columns
// the server listed in the INSERT's order).
func fillV1Columns(b *ch.Block, blk *data.Block) error {
	if len(blk.Columns) != len(b.Columns) {
		return fmt.Errorf("insert block has %d columns, want %d", len(blk.Columns), len(b.Columns))
	}
	blk.Reserve()
	blk.NumRows += uint64(b.Rows)
	for i, c := range b.Columns {
		var err error
		switch d := c.Data.(type) {
		case []string:
			err = writeV1(blk.WriteString, i, d)
		case []uint8:
			err = writeV1(blk.WriteUInt8, i, d)
		case []uint16:
			err = writeV1(blk.WriteUInt16, i, d)
		case []uint32:
			err = writeV1(blk.WriteUInt32, i, d)
		case []uint64:
			err = writeV1(blk.WriteUInt64, i, d)
		case []int8:
			err = writeV1(blk.WriteInt8, i, d)
		case []int16:
			err = writeV1(blk.WriteInt16, i, d)
		case []int32:
			err = writeV1(blk.WriteInt32, i, d)
		case []int64:
			err = writeV1(blk.WriteInt64, i, d)
		case []float32:
			err = writeV1(blk.WriteFloat32, i, d)
		case []float64:
			err = writeV1(blk.WriteFloat64, i, d)
		default:
			err = fmt.Errorf("holds %T", c.Data)
		}
		if err != nil {
			return fmt.Errorf("write column %s: %w", c.Name, err)
		}
	}
	return nil
}

// writeV1 writes the values vs to column i with v1's typed writer.
func writeV1[T any](write func(int, T) error, i int, vs []T) error {
	for _, v := range vs {
		if err := write(i, v); err != nil {
			return err
		}
	}
	return nil
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
