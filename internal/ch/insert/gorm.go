package insert

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	v2proto "github.com/ClickHouse/clickhouse-go/v2/lib/proto"
	gormch "gorm.io/driver/clickhouse"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/ch/numbers"
)

// gormEvent is the event row as a gorm model; the field order is the
// column order of event.Columns.
type gormEvent struct {
	Ccollectorip    string `gorm:"column:ccollectorip"`
	Cdevip          string `gorm:"column:cdevip"`
	Cdevtype        string `gorm:"column:cdevtype"`
	Cdstip          string `gorm:"column:cdstip"`
	Ceventmsg       string `gorm:"column:ceventmsg"`
	Ceventname      string `gorm:"column:ceventname"`
	Ceventtype      string `gorm:"column:ceventtype"`
	Cflowdir        string `gorm:"column:cflowdir"`
	Cobject         string `gorm:"column:cobject"`
	Coperation      string `gorm:"column:coperation"`
	Csrcip          string `gorm:"column:csrcip"`
	Csrclogtype     string `gorm:"column:csrclogtype"`
	LogtypeTag      string `gorm:"column:logtype_tag"`
	Manufacturer    string `gorm:"column:manufacturer"`
	Reason          string `gorm:"column:reason"`
	Iappprotocol    int32  `gorm:"column:iappprotocol"`
	Icollecttype    int32  `gorm:"column:icollecttype"`
	Idstport        int32  `gorm:"column:idstport"`
	Ieventlevel     int32  `gorm:"column:ieventlevel"`
	Imergecount     int32  `gorm:"column:imergecount"`
	Iprotocol       int32  `gorm:"column:iprotocol"`
	Isrcport        int32  `gorm:"column:isrcport"`
	Lduration       int64  `gorm:"column:lduration"`
	Lrecivepack     int64  `gorm:"column:lrecivepack"`
	Lsendpack       int64  `gorm:"column:lsendpack"`
	RequestBodyLen  int64  `gorm:"column:request_body_len"`
	ResponseBodyLen int64  `gorm:"column:response_body_len"`
	Lendtime        int64  `gorm:"column:lendtime"`
	Lid             int64  `gorm:"column:lid"`
	Loccurtime      int64  `gorm:"column:loccurtime"`
	Lrecepttime     int64  `gorm:"column:lrecepttime"`
	Lstartime       int64  `gorm:"column:lstartime"`
}

// gormRows converts an event block into models, reusing rows. The fields
// are filled column by column from typed slices.
func gormRows(b *ch.Block, rows []gormEvent) ([]gormEvent, error) {
	if len(b.Columns) != len(event.Columns) {
		return nil, fmt.Errorf("gorm path: block has %d columns, the event model %d", len(b.Columns), len(event.Columns))
	}
	if cap(rows) < b.Rows {
		rows = make([]gormEvent, b.Rows)
	}
	rows = rows[:b.Rows]
	str := func(i int) []string { return b.Columns[i].Data.([]string) }
	i32 := func(i int) []int32 { return b.Columns[i].Data.([]int32) }
	i64 := func(i int) []int64 { return b.Columns[i].Data.([]int64) }
	for r := range rows {
		e := &rows[r]
		e.Ccollectorip, e.Cdevip, e.Cdevtype, e.Cdstip = str(0)[r], str(1)[r], str(2)[r], str(3)[r]
		e.Ceventmsg, e.Ceventname, e.Ceventtype, e.Cflowdir = str(4)[r], str(5)[r], str(6)[r], str(7)[r]
		e.Cobject, e.Coperation, e.Csrcip, e.Csrclogtype = str(8)[r], str(9)[r], str(10)[r], str(11)[r]
		e.LogtypeTag, e.Manufacturer, e.Reason = str(12)[r], str(13)[r], str(14)[r]
		e.Iappprotocol, e.Icollecttype, e.Idstport, e.Ieventlevel = i32(15)[r], i32(16)[r], i32(17)[r], i32(18)[r]
		e.Imergecount, e.Iprotocol, e.Isrcport = i32(19)[r], i32(20)[r], i32(21)[r]
		e.Lduration, e.Lrecivepack, e.Lsendpack, e.RequestBodyLen = i64(22)[r], i64(23)[r], i64(24)[r], i64(25)[r]
		e.ResponseBodyLen, e.Lendtime, e.Lid, e.Loccurtime = i64(26)[r], i64(27)[r], i64(28)[r], i64(29)[r]
		e.Lrecepttime, e.Lstartime = i64(30)[r], i64(31)[r]
	}
	return rows, nil
}

// gormNumbers is seed 002's row as a gorm model.
type gormNumbers struct {
	U8  uint8   `gorm:"column:u8"`
	U16 uint16  `gorm:"column:u16"`
	U32 uint32  `gorm:"column:u32"`
	U64 uint64  `gorm:"column:u64"`
	I8  int8    `gorm:"column:i8"`
	I16 int16   `gorm:"column:i16"`
	I32 int32   `gorm:"column:i32"`
	I64 int64   `gorm:"column:i64"`
	F32 float32 `gorm:"column:f32"`
	F64 float64 `gorm:"column:f64"`
}

// gormNumberRows converts a numbers block into models, reusing rows.
func gormNumberRows(b *ch.Block, rows []gormNumbers) []gormNumbers {
	if cap(rows) < b.Rows {
		rows = make([]gormNumbers, b.Rows)
	}
	rows = rows[:b.Rows]
	c := b.Columns
	u8, u16, u32, u64 := c[0].Data.([]uint8), c[1].Data.([]uint16), c[2].Data.([]uint32), c[3].Data.([]uint64)
	i8, i16, i32, i64 := c[4].Data.([]int8), c[5].Data.([]int16), c[6].Data.([]int32), c[7].Data.([]int64)
	f32, f64 := c[8].Data.([]float32), c[9].Data.([]float64)
	for r := range rows {
		rows[r] = gormNumbers{u8[r], u16[r], u32[r], u64[r], i8[r], i16[r], i32[r], i64[r], f32[r], f64[r]}
	}
	return rows
}

// gormInserter is gorm's Create(&rows) on its ClickHouse driver (v2 through
// database/sql underneath). Build converts the block to models; Send is
// Create, which is gorm's reflection over every field of every row, one
// Exec per row in a transaction, and the commit: gorm gives no way to time
// its own work apart from the network.
type gormInserter struct {
	db      *gorm.DB
	close   func() error
	events  []gormEvent
	numbers []gormNumbers
}

var _ ch.Inserter = (*gormInserter)(nil)

func openGormOn(conn gorm.ConnPool) (*gorm.DB, error) {
	return gorm.Open(gormch.New(gormch.Config{Conn: conn, SkipInitializeWithVersion: true}),
		&gorm.Config{Logger: logger.Discard})
}

func openGorm(ctx context.Context, o Options) (ch.Inserter, error) {
	sqlDB, err := openV2DB(ctx, o)
	if err != nil {
		return nil, err
	}
	db, err := openGormOn(sqlDB)
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("open gorm on %s: %w", o.DSN.Addr, err)
	}
	return &gormInserter{db: db, close: sqlDB.Close}, nil
}

func (g *gormInserter) Build(ctx context.Context, table string, b *ch.Block) (ch.Batch, error) {
	var rows any // a pointer to the models, for Create
	if isNumbers(b) {
		g.numbers = gormNumberRows(b, g.numbers)
		rows = &g.numbers
	} else {
		events, err := gormRows(b, g.events)
		if err != nil {
			return nil, err
		}
		g.events, rows = events, &g.events
	}
	return ch.BatchFunc(func(ctx context.Context) error {
		if err := g.db.WithContext(ctx).Table(table).Create(rows).Error; err != nil {
			return fmt.Errorf("gorm create: %w", err)
		}
		return nil
	}), nil
}

func (g *gormInserter) Close() error { return g.close() }

// isNumbers says whether b holds seed 002's numbers rather than events.
func isNumbers(b *ch.Block) bool {
	return len(b.Columns) == len(numbers.Columns) && b.Columns[0].Name == numbers.Columns[0].Name
}

// roundTripGorm runs gorm's real Create over a database/sql driver that
// hands each Exec's arguments to a clickhouse-go v2 block (as v2's own
// database/sql driver does), then encodes and decodes that block.
func roundTripGorm(b *ch.Block) (*ch.Block, error) {
	rows, err := gormRows(b, nil)
	if err != nil {
		return nil, err
	}
	return v2RoundTrip(b, func(blk *v2proto.Block) error {
		cp := &capture{append: blk.Append}
		sqlDB := sql.OpenDB(cp)
		defer sqlDB.Close()
		db, err := openGormOn(sqlDB)
		if err != nil {
			return err
		}
		if err := db.Table("`t`").Create(&rows).Error; err != nil {
			return err
		}
		if got, want := insertColumns(cp.query), strings.Join(b.Names(), ","); got != want {
			return fmt.Errorf("gorm inserts columns %s, want %s", got, want)
		}
		return nil
	})
}

// insertColumns extracts the column list of an INSERT statement.
func insertColumns(q string) string {
	open, end := strings.Index(q, "("), strings.Index(q, ")")
	if open < 0 || end < open {
		return ""
	}
	return strings.NewReplacer("`", "", " ", "", `"`, "").Replace(q[open+1 : end])
}

// capture is a database/sql driver with no server: each Exec's arguments
// go to append, the prepared statement's text to query.
type capture struct {
	append func(v ...any) error
	query  string
}

func (c *capture) Connect(context.Context) (driver.Conn, error) { return captureConn{c}, nil }
func (c *capture) Driver() driver.Driver                        { return captureDriver{} }

type captureDriver struct{}

func (captureDriver) Open(string) (driver.Conn, error) {
	return nil, errors.New("capture: use the connector")
}

type captureConn struct{ c *capture }

func (c captureConn) Prepare(q string) (driver.Stmt, error) {
	c.c.query = q
	return captureStmt(c), nil
}
func (captureConn) Close() error              { return nil }
func (captureConn) Begin() (driver.Tx, error) { return captureTx{}, nil }

// CheckNamedValue passes values through unconverted, as clickhouse-go v2
// does (database/sql would otherwise widen int32 to int64).
func (captureConn) CheckNamedValue(*driver.NamedValue) error { return nil }

type captureStmt captureConn

func (captureStmt) Close() error  { return nil }
func (captureStmt) NumInput() int { return -1 }
func (s captureStmt) Exec(args []driver.Value) (driver.Result, error) {
	vs := make([]any, len(args))
	for i, a := range args {
		vs[i] = a
	}
	return driver.RowsAffected(1), s.c.append(vs...)
}
func (captureStmt) Query([]driver.Value) (driver.Rows, error) {
	return nil, errors.New("capture: no queries")
}

type captureTx struct{}

func (captureTx) Commit() error   { return nil }
func (captureTx) Rollback() error { return nil }
