package driver

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// Whether a pgx driver goes through database/sql.
const (
	native     = false
	throughSQL = true
)

// openPgx opens pgx natively or, through database/sql (pgx's stdlib
// package), the way code written against database/sql uses pgx; both with
// the same configuration. Natively, simple mode substitutes values in the
// client and sends text (pgx then uses the simple protocol); extended uses
// QueryExecModeExec, an unnamed statement in one round trip; prepared
// prepares each statement by name on first use.
func openPgx(viaSQL bool) DriverFunc {
	return func(ctx context.Context, dsn string, mode QueryMode) (Session, error) {
		cfg, socks, err := pgxConfig(dsn, mode)
		if err != nil {
			return nil, err
		}
		if viaSQL {
			return openSQL(ctx, stdlib.GetConnector(*cfg), mode, socks)
		}
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			return nil, err
		}
		return &pgxSession{sockets: socks, conn: conn, mode: mode, prepared: map[string]bool{}, asText: map[string][]bool{}}, nil
	}
}

// pgxConfig is pgx's configuration for dsn in mode, native or through
// database/sql, dialling through sockets. Extended mode is
// QueryExecModeExec: arguments in one round trip through an unnamed
// statement, as pgbench -M extended; simple mode sends text with the
// values in it over the simple protocol, as pgbench (a \; compound is
// then one message, as there).
func pgxConfig(dsn string, mode QueryMode) (*pgx.ConnConfig, *sockets, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("parse DSN: %w", err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	if mode == ModeSimple {
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	}
	// The session prepares what it needs itself, so pgx's own caches would
	// only cost memory and lookups.
	cfg.StatementCacheCapacity = 0
	cfg.DescriptionCacheCapacity = 0
	socks := &sockets{}
	cfg.DialFunc = socks.dial
	return cfg, socks, nil
}

type pgxSession struct {
	*sockets
	conn     *pgx.Conn
	mode     QueryMode
	prepared map[string]bool
	asText   map[string][]bool // per prepared statement: parameters the server types as text
	pipe     *pgconn.Pipeline  // open between StartPipeline and EndPipeline
	queued   int
}

var (
	_ Session     = (*pgxSession)(nil)
	_ Interrupter = (*pgxSession)(nil)
)

// sql returns what to send for st: its text with values substituted in
// simple mode, its prepared name in prepared mode, its SQL otherwise.
func (s *pgxSession) sql(ctx context.Context, st *Stmt, args []any) (string, []any, error) {
	switch s.mode {
	case ModeSimple:
		return st.Text(args), nil, nil
	case ModePrepared:
		if !s.prepared[st.Name] {
			sd, err := s.conn.Prepare(ctx, st.Name, st.SQL)
			if err != nil {
				return "", nil, err
			}
			s.prepared[st.Name] = true
			if text := textParams(sd.ParamOIDs); text != nil {
				s.asText[st.Name] = text
			}
		}
		if text := s.asText[st.Name]; text != nil {
			args = argsAsText(args, text)
		}
		return st.Name, args, nil
	}
	return st.SQL, args, nil
}

func (s *pgxSession) Exec(ctx context.Context, st *Stmt, args ...any) (int64, error) {
	sql, args, err := s.sql(ctx, st, args)
	if err != nil {
		return 0, err
	}
	tag, err := s.conn.Exec(ctx, sql, args...)
	return tag.RowsAffected(), err
}

func (s *pgxSession) Query(ctx context.Context, st *Stmt, args ...any) (int64, error) {
	sql, args, err := s.sql(ctx, st, args)
	if err != nil {
		return 0, err
	}
	rows, err := s.conn.Query(ctx, sql, args...)
	if err != nil {
		return 0, err
	}
	var n int64
	for rows.Next() {
		n++
	}
	rows.Close()
	return n, rows.Err()
}

// textParams marks the parameters the server typed as text: a number or a
// boolean bound to one must travel as its text, as pgbench sends every
// value (pgx will not encode an int64 as text). nil when there are none.
func textParams(oids []uint32) []bool {
	var out []bool
	for i, oid := range oids {
		switch oid {
		case 25, 1043, 1042, 705, 19: // text, varchar, bpchar, unknown, name
			if out == nil {
				out = make([]bool, len(oids))
			}
			out[i] = true
		}
	}
	return out
}

// argsAsText turns the marked arguments into their text.
func argsAsText(args []any, text []bool) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a
		if i < len(text) && text[i] && a != nil {
			out[i] = textArg(a)
		}
	}
	return out
}

func (s *pgxSession) Close(ctx context.Context) error { return s.conn.Close(ctx) }

// InTx asks pgconn, which follows the server's ReadyForQuery status.
func (s *pgxSession) InTx() (bool, bool) { return s.conn.PgConn().TxStatus() != 'I', true }
