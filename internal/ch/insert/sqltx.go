package insert

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// txInserter is the database/sql way to bulk insert into ClickHouse, the
// same through every driver: begin a transaction, prepare the INSERT (the
// driver sends it and reads the table's structure), Exec once per row (the
// driver buffers the row), Commit (the driver sends the block and waits
// for the server). Build is everything up to Commit; Send is Commit.
type txInserter struct {
	begin func(ctx context.Context, query string) (tx, error)
	close func() error
	row   []any
}

// tx is an open transaction with its prepared INSERT.
type tx interface {
	Exec(ctx context.Context, args ...any) error
	Commit() error
	Rollback() error
}

var _ ch.Inserter = (*txInserter)(nil)

func (t *txInserter) Build(ctx context.Context, table string, b *ch.Block) (ch.Batch, error) {
	x, err := t.begin(ctx, insertSQL(table, b)+" VALUES")
	if err != nil {
		return nil, err
	}
	for i := range b.Rows {
		t.row = b.Row(i, t.row)
		if err := x.Exec(ctx, t.row...); err != nil {
			x.Rollback()
			return nil, fmt.Errorf("exec row %d: %w", i, err)
		}
	}
	return ch.BatchFunc(func(context.Context) error {
		if err := x.Commit(); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		return nil
	}), nil
}

func (t *txInserter) Close() error { return t.close() }

// sqlTx is a database/sql transaction and statement.
type sqlTx struct {
	tx   *sql.Tx
	stmt *sql.Stmt
}

func (s sqlTx) Exec(ctx context.Context, args ...any) error {
	_, err := s.stmt.ExecContext(ctx, args...)
	return err
}

func (s sqlTx) Commit() error {
	err := s.tx.Commit()
	s.stmt.Close()
	return err
}

func (s sqlTx) Rollback() error {
	s.stmt.Close()
	return s.tx.Rollback()
}

// beginSQL opens a transaction on db and prepares query in it.
func beginSQL(db *sql.DB) func(ctx context.Context, query string) (tx, error) {
	return func(ctx context.Context, query string) (tx, error) {
		t, err := db.BeginTx(ctx, nil)
		if err != nil {
			return nil, fmt.Errorf("begin: %w", err)
		}
		stmt, err := t.PrepareContext(ctx, query)
		if err != nil {
			t.Rollback()
			return nil, fmt.Errorf("prepare insert: %w", err)
		}
		return sqlTx{tx: t, stmt: stmt}, nil
	}
}

// openSQL is clickhouse-go v2 through database/sql, the seed's
// "database/sql" path.
func openSQL(ctx context.Context, o Options) (ch.Inserter, error) {
	db, err := openV2DB(ctx, o)
	if err != nil {
		return nil, err
	}
	return &txInserter{begin: beginSQL(db), close: db.Close}, nil
}
