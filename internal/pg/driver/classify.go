package driver

import (
	"context"
	"database/sql"
	sqldriver "database/sql/driver"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/lib/pq"

	"github.com/dbmeter/dbmeter/internal/load"
)

// KindSerialization counts transactions the server aborted to keep
// transactions serializable (SQLSTATE 40001) or to break a deadlock
// (40P01): the failures pgbench would retry with --max-tries.
const KindSerialization = "serialization"

// Classify sorts an error from a session into a kind: serialization,
// server (any other SQLSTATE), connection (the session is gone and must be
// reopened), timeout, or other.
func Classify(err error) string {
	if code := SQLState(err); code != "" {
		return kindOfState(code)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		return load.KindTimeout
	}
	var ce *pgconn.ConnectError
	switch {
	case errors.As(err, &ce),
		errors.Is(err, sqldriver.ErrBadConn),
		errors.Is(err, sql.ErrConnDone),
		strings.Contains(err.Error(), "conn closed"):
		return load.KindConnection
	}
	return load.Classify(err)
}

// SQLState returns the server's error code carried by err, or "".
func SQLState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		return string(pqErr.Code)
	}
	return ""
}

func kindOfState(code string) string {
	switch {
	case code == "40001" || code == "40P01":
		return KindSerialization
	// Class 08 is connection exceptions; 57P01-57P03 are the server shutting
	// down or starting up: either way this session is gone.
	case strings.HasPrefix(code, "08"), code == "57P01", code == "57P02", code == "57P03":
		return load.KindConnection
	}
	return load.KindServer
}
