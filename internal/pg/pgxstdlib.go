package pg

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// openPgxStdlib opens pgx through database/sql (pgx's stdlib package), the
// way code written against database/sql uses pgx. Extended mode sets
// QueryExecModeExec, so arguments go in one round trip through an unnamed
// statement, as pgbench -M extended does.
func openPgxStdlib(ctx context.Context, dsn string, mode QueryMode) (Session, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("parse DSN: %w", err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	if mode == ModeSimple {
		// Text with the values in it, over the simple protocol, as pgbench
		// (a \; compound is then one message, as there).
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	}
	cfg.StatementCacheCapacity = 0
	cfg.DescriptionCacheCapacity = 0
	socks := &sockets{}
	cfg.DialFunc = socks.dial
	return openSQL(ctx, stdlib.GetConnector(*cfg), mode, socks)
}
