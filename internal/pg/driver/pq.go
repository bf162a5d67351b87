package driver

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/lib/pq"
)

// openPQ opens lib/pq through database/sql. lib/pq sends a statement with
// arguments either as two round trips (prepare the unnamed statement, then
// bind and execute) or, with binary_parameters=yes, as one; extended mode
// asks for the latter because pgbench -M extended is one round trip.
func openPQ(ctx context.Context, dsn string, mode QueryMode) (Session, error) {
	if mode == ModeExtended {
		dsn = withParam(dsn, "binary_parameters", "yes")
	}
	// lib/pq alone defaults to sslmode=require; libpq, pgbench and pgx
	// default to prefer, and the drivers must reach the same servers.
	if !strings.Contains(dsn, "sslmode") && os.Getenv("PGSSLMODE") == "" {
		dsn = withParam(dsn, "sslmode", "prefer")
	}
	c, err := pq.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("parse DSN: %w", err)
	}
	socks := &sockets{}
	c.Dialer(pqDialer{socks})
	return openSQL(ctx, c, mode, socks)
}

// withParam adds key=value to a URL or keyword/value DSN.
func withParam(dsn, key, value string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return dsn
		}
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return strings.TrimSpace(dsn + " " + key + "=" + value)
}
