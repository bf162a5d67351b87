package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ConnInfo is what pgbench's options and PG* variables say about where to
// connect. Empty fields are left to the drivers' defaults.
type ConnInfo struct {
	Host, Port, User, Password, DBName, SSLMode string
}

// DSN returns c as a postgres:// URL.
func (c ConnInfo) DSN() string {
	u := url.URL{Scheme: "postgres", Path: "/" + c.DBName}
	if c.User != "" || c.Password != "" {
		if c.Password != "" {
			u.User = url.UserPassword(c.User, c.Password)
		} else {
			u.User = url.User(c.User)
		}
	}
	host := c.Host
	if strings.HasPrefix(host, "/") {
		// A socket directory goes in the query, as libpq's URLs allow.
		q := url.Values{"host": {host}}
		u.RawQuery = q.Encode()
		host = ""
	}
	if c.Port != "" && host != "" {
		host = net.JoinHostPort(host, c.Port)
	} else if c.Port != "" {
		q := u.Query()
		q.Set("port", c.Port)
		u.RawQuery = q.Encode()
	}
	u.Host = host
	if c.SSLMode != "" {
		q := u.Query()
		q.Set("sslmode", c.SSLMode)
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// WithConnectTimeout returns dsn with libpq's connect_timeout (whole
// seconds, at least 1) set to d, unless the DSN sets one itself, so an
// unreachable host fails in bounded time with every driver: pgx and lib/pq
// both read it.
func WithConnectTimeout(dsn string, d time.Duration) string {
	return withDefault(dsn, "connect_timeout", strconv.Itoa(max(1, int(math.Ceil(d.Seconds())))))
}

// WithApplicationName returns dsn with libpq's application_name set to
// name, unless the DSN sets one itself: the server then lists the run's
// backends under that name (pg_stat_activity).
func WithApplicationName(dsn, name string) string {
	return withDefault(dsn, "application_name", name)
}

// withDefault sets the connection parameter key to value (a word with no
// spaces or quotes) in a URL or key=value DSN that does not set it.
func withDefault(dsn, key, value string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		if q.Get(key) == "" {
			q.Set(key, value)
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	if strings.Contains(dsn, key+"=") {
		return dsn
	}
	return strings.TrimSpace(dsn) + " " + key + "=" + value
}

// Endpoint names the server and database a DSN points at, as
// "host:port/dbname", for targets and messages. It never includes secrets.
func Endpoint(dsn string) (hostPort, dbname string, err error) {
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return "", "", fmt.Errorf("parse DSN: %w", err)
	}
	host := cfg.Host
	if strings.HasPrefix(host, "/") {
		return fmt.Sprintf("%s:%d", host, cfg.Port), cfg.Database, nil
	}
	return net.JoinHostPort(host, fmt.Sprint(cfg.Port)), cfg.Database, nil
}

// Connect opens an administrative connection (setup, scale, vacuum) and
// turns the common failures into one line that says what to do.
func Connect(ctx context.Context, dsn string) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, ConnectError(dsn, err)
	}
	return conn, nil
}

// ConnectError explains a failed connection to dsn in one line.
func ConnectError(dsn string, err error) error {
	where, db, perr := Endpoint(dsn)
	if perr != nil {
		return fmt.Errorf("bad DSN: %v", errors.Unwrap(perr))
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "28P01", "28000":
			return fmt.Errorf("cannot connect to %s: %s: check the user and password ({DSNs}, {User}, PGUSER, PGPASSWORD)", where, pgErr.Message)
		case "3D000":
			return fmt.Errorf("cannot connect to %s: database %q does not exist: create it or name another ({DSNs}, the DBNAME argument, PGDATABASE)", where, db)
		}
		return fmt.Errorf("cannot connect to %s: %s (SQLSTATE %s)", where, pgErr.Message, pgErr.Code)
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("cannot connect to %s: connection refused: is PostgreSQL running and listening there? ({DSNs}, {Host}, {Port}, PGHOST, PGPORT)", where)
	case errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err):
		return fmt.Errorf("cannot connect to %s: timed out: check the host and port, and any firewall", where)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return fmt.Errorf("cannot connect to %s: unknown host %q: check the host name", where, dnsErr.Name)
	}
	return fmt.Errorf("cannot connect to %s: %v", where, innermost(err))
}

// innermost drops pgconn's "failed to connect to `user=… database=…`"
// wrapping, which repeats what the caller already says.
func innermost(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}
