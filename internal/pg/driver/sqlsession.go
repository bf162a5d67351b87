package driver

import (
	"context"
	"database/sql"
	sqldriver "database/sql/driver"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// sqlSession is a session through database/sql, on one dedicated
// connection so that it is one pgbench client. Simple mode substitutes
// values in the client and sends text without arguments, which both
// pgx-stdlib and lib/pq send over the simple protocol; prepared mode
// prepares each statement on the connection; extended passes arguments and
// lets the driver send an unnamed statement.
type sqlSession struct {
	*sockets
	db    *sql.DB
	conn  *sql.Conn
	mode  QueryMode
	stmts map[string]*sql.Stmt
	raw   *pgxSession // pgx-stdlib: the pgx connection, for Fetch
}

var (
	_ Session     = (*sqlSession)(nil)
	_ Interrupter = (*sqlSession)(nil)
)

func openSQL(ctx context.Context, c sqldriver.Connector, mode QueryMode, socks *sockets) (*sqlSession, error) {
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &sqlSession{sockets: socks, db: db, conn: conn, mode: mode, stmts: map[string]*sql.Stmt{}}, nil
}

// encodeFailed reports an argument pgx refused to encode for the
// parameter type the server chose (an int64 for a text parameter): pgbench
// sends every value as text, so the statement is retried with text
// arguments, which nothing has sent to the server yet.
func encodeFailed(err error) bool {
	return err != nil && strings.Contains(err.Error(), "failed to encode args")
}

func allText(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if a != nil {
			out[i] = textArg(a)
		}
	}
	return out
}

func (s *sqlSession) stmt(ctx context.Context, st *Stmt) (*sql.Stmt, error) {
	if ps, ok := s.stmts[st.Name]; ok {
		return ps, nil
	}
	ps, err := s.conn.PrepareContext(ctx, st.SQL)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	s.stmts[st.Name] = ps
	return ps, nil
}

func (s *sqlSession) Exec(ctx context.Context, st *Stmt, args ...any) (int64, error) {
	var res sql.Result
	var err error
	switch s.mode {
	case ModeSimple:
		res, err = s.conn.ExecContext(ctx, st.Text(args))
	case ModePrepared:
		var ps *sql.Stmt
		if ps, err = s.stmt(ctx, st); err == nil {
			res, err = ps.ExecContext(ctx, args...)
			if encodeFailed(err) {
				res, err = ps.ExecContext(ctx, allText(args)...)
			}
		}
	default:
		res, err = s.conn.ExecContext(ctx, st.SQL, args...)
	}
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// query runs st in the session's query mode.
func (s *sqlSession) query(ctx context.Context, st *Stmt, args []any) (*sql.Rows, error) {
	switch s.mode {
	case ModeSimple:
		return s.conn.QueryContext(ctx, st.Text(args))
	case ModePrepared:
		ps, err := s.stmt(ctx, st)
		if err != nil {
			return nil, err
		}
		rows, err := ps.QueryContext(ctx, args...)
		if encodeFailed(err) {
			rows, err = ps.QueryContext(ctx, allText(args)...)
		}
		return rows, err
	}
	return s.conn.QueryContext(ctx, st.SQL, args...)
}

func (s *sqlSession) Query(ctx context.Context, st *Stmt, args ...any) (int64, error) {
	rows, err := s.query(ctx, st, args)
	if err != nil {
		return 0, err
	}
	var n int64
	for rows.Next() {
		n++
	}
	if err := rows.Close(); err != nil {
		return n, err
	}
	return n, rows.Err()
}

func (s *sqlSession) Close(context.Context) error {
	for _, ps := range s.stmts {
		ps.Close()
	}
	err := s.conn.Close()
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	return err
}

// InTx asks the driver connection when it is pgx's; lib/pq does not say.
func (s *sqlSession) InTx() (in, known bool) {
	_ = s.conn.Raw(func(dc any) error {
		if pc, ok := dc.(interface{ Conn() *pgx.Conn }); ok {
			in, known = pc.Conn().PgConn().TxStatus() != 'I', true
		}
		return nil
	})
	return in, known
}
