package query

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"
	"sync"
)

// SQLQuerier runs queries through database/sql over any driver.Connector:
// clickhouse-go v1 and clickhouse-go v2's database/sql driver both use it.
// With Options.Prepared the arguments go to the driver, which binds them
// into the text on the client (ClickHouse has no server-side prepared
// statements): through db.PrepareContext once per text and
// stmt.QueryContext when the driver prepares SELECTs (v1), or straight to
// db.QueryContext when it does not (v2: its PrepareContext is its batch
// INSERT API and refuses anything else, clickhouse-go#1203).
type SQLQuerier struct {
	db       *sql.DB
	count    *connCounter
	opts     Options
	prepare  bool
	isServer func(error) bool
	// withID puts a query id where the driver reads it; nil: the driver
	// cannot send one.
	withID func(ctx context.Context, id string) context.Context
	mu     struct {
		sync.Mutex
		stmts map[string]*sql.Stmt
	}
}

// NewSQL opens a database/sql pool over c with o's pool knobs. prepare
// says the driver prepares SELECTs (see SQLQuerier); isServer says which
// driver errors are the server refusing a query.
func NewSQL(c driver.Connector, o Options, prepare bool, isServer func(error) bool) *SQLQuerier {
	q := &SQLQuerier{count: &connCounter{}, opts: o, prepare: prepare, isServer: isServer}
	q.db = sql.OpenDB(connector{Connector: c, count: q.count})
	applySQLPool(q.db, o.Pool)
	q.mu.stmts = map[string]*sql.Stmt{}
	return q
}

// SendQueryIDs tells q how its driver takes a query id (WithQueryID) from
// a context.
func (q *SQLQuerier) SendQueryIDs(withID func(ctx context.Context, id string) context.Context) *SQLQuerier {
	q.withID = withID
	return q
}

// Query implements Querier.
func (q *SQLQuerier) Query(ctx context.Context, text string, args ...any) (QueryStats, error) {
	if id := QueryID(ctx); id != "" && q.withID != nil {
		ctx = q.withID(ctx, id)
	}
	rows, err := q.rows(ctx, text, args)
	if err != nil {
		return QueryStats{}, q.mark(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return QueryStats{}, q.mark(fmt.Errorf("read column types: %w", err))
	}
	types, dbTypes := make([]reflect.Type, len(cts)), make([]string, len(cts))
	for i, ct := range cts {
		if types[i] = ct.ScanType(); types[i] == nil {
			types[i] = reflect.TypeFor[any]()
		}
		dbTypes[i] = ct.DatabaseTypeName()
	}
	st, err := ScanRows(rows, types, dbTypes, q.opts.Decode)
	if err != nil {
		return st, q.mark(err)
	}
	return st, q.mark(rows.Close())
}

func (q *SQLQuerier) rows(ctx context.Context, text string, args []any) (*sql.Rows, error) {
	if !q.opts.Prepared || !q.prepare {
		return q.db.QueryContext(ctx, text, args...)
	}
	stmt, err := q.stmt(ctx, text)
	if err != nil {
		return nil, err
	}
	return stmt.QueryContext(ctx, args...)
}

// stmt prepares text once per Querier; database/sql re-prepares it on each
// new connection by itself.
func (q *SQLQuerier) stmt(ctx context.Context, text string) (*sql.Stmt, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if s, ok := q.mu.stmts[text]; ok {
		return s, nil
	}
	s, err := q.db.PrepareContext(ctx, text)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	q.mu.stmts[text] = s
	return s, nil
}

func (q *SQLQuerier) mark(err error) error {
	if err != nil && q.isServer(err) {
		return ServerError(err)
	}
	return err
}

// Pool implements Querier.
func (q *SQLQuerier) Pool() PoolStats { return sqlPoolStats(q.db, q.count) }

// Close implements Querier.
func (q *SQLQuerier) Close() error {
	q.mu.Lock()
	for _, s := range q.mu.stmts {
		s.Close()
	}
	q.mu.stmts = nil
	q.mu.Unlock()
	return q.db.Close()
}

// DSNConnector makes a connector of a driver that only has Open(dsn).
func DSNConnector(drv driver.Driver, dsn string) driver.Connector {
	return dsnConnector{dsn: dsn, drv: drv}
}
