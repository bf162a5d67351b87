package insert

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	chproto "github.com/ClickHouse/ch-go/proto"
	clickhouse "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/column"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	v2proto "github.com/ClickHouse/clickhouse-go/v2/lib/proto"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// v2Options turns the DSN into clickhouse-go v2's options, with dbmeter's
// dialer (TCP_NODELAY, and the DSN's TLS) and one connection: each worker
// is one connection.
func v2Options(o Options) (*clickhouse.Options, error) {
	opts, err := o.DSN.V2(o.dial)
	if err != nil {
		return nil, fmt.Errorf("clickhouse-go v2 cannot use DSN %s: %w", o.DSN, err)
	}
	opts.DialTimeout = o.dialTimeout()
	if opts.ReadTimeout == 0 {
		// v2 fails a query whose next packet takes longer than this: the
		// server's answer to a large INSERT on a loaded machine may.
		opts.ReadTimeout = 10 * time.Minute
	}
	opts.MaxOpenConns, opts.MaxIdleConns = 1, 1
	return opts, nil
}

// insertSQL is the INSERT statement for b's columns.
func insertSQL(table string, b *ch.Block) string {
	return "INSERT INTO " + table + " (" + strings.Join(b.Names(), ", ") + ")"
}

// v2Inserter is clickhouse-go v2's native batch API: PrepareBatch, then
// Append row by row or Column(i).Append per column, then Send. With
// BlocksPerInsert > 1 the batch stays open and Flush sends each block.
type v2Inserter struct {
	conn     driver.Conn
	o        Options
	columnar bool
	batch    driver.Batch
	blocks   int
	row      []any
}

var (
	_ ch.Inserter  = (*v2Inserter)(nil)
	_ ch.Committer = (*v2Inserter)(nil)
)

func openV2(ctx context.Context, o Options, columnar bool) (ch.Inserter, error) {
	opts, err := v2Options(o)
	if err != nil {
		return nil, err
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("connect with clickhouse-go v2 to %s: %w", o.DSN.Addr, err)
	}
	if err := conn.Ping(ctx); err != nil {
		conn.Close()
		return nil, fmt.Errorf("connect with clickhouse-go v2 to %s: %w", o.DSN.Addr, err)
	}
	return &v2Inserter{conn: conn, o: o, columnar: columnar}, nil
}

func openV2Row(ctx context.Context, o Options) (ch.Inserter, error)    { return openV2(ctx, o, false) }
func openV2Column(ctx context.Context, o Options) (ch.Inserter, error) { return openV2(ctx, o, true) }

func (v *v2Inserter) Build(ctx context.Context, table string, b *ch.Block) (ch.Batch, error) {
	if v.batch == nil {
		batch, err := v.prepare(ctx, insertSQL(table, b))
		if err != nil {
			return nil, fmt.Errorf("prepare batch: %w", err)
		}
		v.batch = batch
	}
	var err error
	if v.columnar {
		err = fillV2Columns(b, func(i int) appender { return v.batch.Column(i) })
	} else {
		v.row, err = fillV2Rows(b, v.row, v.batch.Append)
	}
	if err != nil {
		v.abort()
		return nil, err
	}
	return ch.BatchFunc(v.send), nil
}

// prepare opens a batch for query. The batch keeps the context PrepareBatch
// is given, and v2 closes the connection when that context is done during
// the batch's Send (its watchdog), so the batch has a context of its own:
// a batch outlives the operation that opened it (--blocks-per-insert > 1:
// the worker's last INSERT is committed after the run's context is
// cancelled). The round trip that reads the table's structure is still the
// operation's: its end cancels the prepare, not the batch after.
//
// Once the prepare returned, the batch's context is never cancelled, not
// even when the batch is done. Send stops its watchdog as it returns, but
// the watchdog's goroutine may not have reached its select yet; finding
// both its stop and the context's end ready, it picks one at random, and
// if it picks the end it closes the TCP connection Send has just given
// back to the pool, under the next INSERT on it (its prepare or a block
// fails with "use of closed network connection", a connection error in
// the middle of a run). The context has no parent to cancel it, so
// leaving it uncancelled holds nothing.
func (v *v2Inserter) prepare(ctx context.Context, query string) (driver.Batch, error) {
	bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	batch, err := v.conn.PrepareBatch(bctx, query)
	if !stop() && err == nil {
		// The operation ended as the prepare returned: the batch is
		// spent with its context.
		batch.Abort()
		err = ctx.Err()
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return batch, nil
}

func (v *v2Inserter) send(context.Context) error {
	v.blocks++
	if v.blocks < v.o.perInsert() {
		if err := v.batch.Flush(); err != nil {
			v.abort()
			return fmt.Errorf("flush block: %w", err)
		}
		return nil
	}
	return v.Commit(context.Background())
}

// Commit sends the open batch's last block and ends its INSERT.
func (v *v2Inserter) Commit(context.Context) error {
	if v.batch == nil {
		return nil
	}
	b := v.batch
	v.batch, v.blocks = nil, 0
	if err := b.Send(); err != nil {
		return fmt.Errorf("send batch: %w", err)
	}
	return nil
}

func (v *v2Inserter) abort() {
	if v.batch != nil {
		v.batch.Abort()
		v.batch, v.blocks = nil, 0
	}
}

func (v *v2Inserter) Close() error {
	v.abort()
	return v.conn.Close()
}

// appender is what v2's batch column and a test's column have in common.
type appender interface{ Append(v any) error }

// appenderFunc adapts a function to appender.
type appenderFunc func(v any) error

func (f appenderFunc) Append(v any) error { return f(v) }

// fillV2Columns hands each column's typed slice to v2 in one call.
func fillV2Columns(b *ch.Block, col func(i int) appender) error {
	for i, c := range b.Columns {
		if err := col(i).Append(c.Data); err != nil {
			return fmt.Errorf("append column %s: %w", c.Name, err)
		}
	}
	return nil
}

// fillV2Rows appends b row by row, as a row-oriented caller does. row is a
// reusable buffer, returned grown.
func fillV2Rows(b *ch.Block, row []any, appendRow func(v ...any) error) ([]any, error) {
	for i := range b.Rows {
		row = b.Row(i, row)
		if err := appendRow(row...); err != nil {
			return row, fmt.Errorf("append row %d: %w", i, err)
		}
	}
	return row, nil
}

// v2Revision is the protocol revision the round trips encode with.
const v2Revision = clickhouse.ClientTCPProtocolVersion

// v2RoundTrip fills a v2 block with fill, encodes it with v2's encoder and
// decodes it back.
func v2RoundTrip(b *ch.Block, fill func(blk *v2proto.Block) error) (*ch.Block, error) {
	blk := v2proto.NewBlock()
	for _, c := range b.Columns {
		if err := blk.AddColumn(c.Name, column.Type(c.Type)); err != nil {
			return nil, err
		}
	}
	if err := fill(blk); err != nil {
		return nil, err
	}
	var buf chproto.Buffer
	if err := blk.Encode(&buf, v2Revision); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	got := v2proto.NewBlock()
	if err := got.Decode(chproto.NewReader(bytes.NewReader(buf.Buf)), v2Revision); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	out := &ch.Block{Rows: got.Rows()}
	for i, col := range got.Columns {
		c := ch.Column{Name: col.Name(), Type: string(col.Type())}
		switch c.Type {
		case "String":
			v := make([]string, col.Rows())
			for j := range v {
				v[j] = col.Row(j, false).(string)
			}
			c.Data = v
		case "Int32":
			v := make([]int32, col.Rows())
			for j := range v {
				v[j] = col.Row(j, false).(int32)
			}
			c.Data = v
		case "Int64":
			v := make([]int64, col.Rows())
			for j := range v {
				v[j] = col.Row(j, false).(int64)
			}
			c.Data = v
		default:
			return nil, fmt.Errorf("decoded column %d has type %s", i, c.Type)
		}
		out.Columns = append(out.Columns, c)
	}
	return out, nil
}

func roundTripV2Row(b *ch.Block) (*ch.Block, error) {
	return v2RoundTrip(b, func(blk *v2proto.Block) error {
		_, err := fillV2Rows(b, nil, blk.Append)
		return err
	})
}

func roundTripV2Column(b *ch.Block) (*ch.Block, error) {
	return v2RoundTrip(b, func(blk *v2proto.Block) error {
		return fillV2Columns(b, func(i int) appender {
			return appenderFunc(func(v any) error { _, err := blk.Columns[i].Append(v); return err })
		})
	})
}

// openV2DB opens v2's database/sql interface on one connection.
func openV2DB(ctx context.Context, o Options) (*sql.DB, error) {
	opts, err := v2Options(o)
	if err != nil {
		return nil, err
	}
	db := clickhouse.OpenDB(opts)
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect with clickhouse-go v2 (database/sql) to %s: %w", o.DSN.Addr, err)
	}
	return db, nil
}
