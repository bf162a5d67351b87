package pg

import (
	"context"

	"github.com/jackc/pgx/v5/stdlib"
)

// openPgxStdlib opens pgx through database/sql (pgx's stdlib package), the
// way code written against database/sql uses pgx, with the configuration
// of a native pgx connection.
func openPgxStdlib(ctx context.Context, dsn string, mode QueryMode) (Session, error) {
	cfg, socks, err := pgxConfig(dsn, mode)
	if err != nil {
		return nil, err
	}
	return openSQL(ctx, stdlib.GetConnector(*cfg), mode, socks)
}
