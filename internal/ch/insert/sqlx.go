package insert

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// sqlxTx is an sqlx transaction and statement. sqlx wraps database/sql
// without changing how an Exec reaches the driver, so this path measures
// what the wrapper costs on top of database/sql (the seed found ~10% more
// rows/s, which dbmeter lets a user check).
type sqlxTx struct {
	tx   *sqlx.Tx
	stmt *sqlx.Stmt
}

func (s sqlxTx) Exec(ctx context.Context, args ...any) error {
	_, err := s.stmt.ExecContext(ctx, args...)
	return err
}

func (s sqlxTx) Commit() error {
	err := s.tx.Commit()
	s.stmt.Close()
	return err
}

func (s sqlxTx) Rollback() error {
	s.stmt.Close()
	return s.tx.Rollback()
}

func beginSQLX(db *sqlx.DB) func(ctx context.Context, query string) (tx, error) {
	return func(ctx context.Context, query string) (tx, error) {
		t, err := db.BeginTxx(ctx, nil)
		if err != nil {
			return nil, fmt.Errorf("begin: %w", err)
		}
		stmt, err := t.PreparexContext(ctx, query)
		if err != nil {
			t.Rollback()
			return nil, fmt.Errorf("prepare insert: %w", err)
		}
		return sqlxTx{tx: t, stmt: stmt}, nil
	}
}

// openSQLX is sqlx over clickhouse-go v2's database/sql driver.
func openSQLX(ctx context.Context, o Options) (ch.Inserter, error) {
	db, err := openV2DB(ctx, o)
	if err != nil {
		return nil, err
	}
	x := sqlx.NewDb(db, "clickhouse")
	return &txInserter{begin: beginSQLX(x), close: x.Close}, nil
}

// openSQLXV1 is sqlx over clickhouse-go v1, as the seed ran it
// (sqlx.Connect("clickhouse", "tcp://…")): the sqlx path for old servers.
func openSQLXV1(ctx context.Context, o Options) (ch.Inserter, error) {
	db, err := openV1DB(ctx, o)
	if err != nil {
		return nil, err
	}
	x := sqlx.NewDb(db, "clickhouse")
	return &txInserter{begin: beginSQLX(x), close: x.Close}, nil
}
