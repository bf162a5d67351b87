package driver

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dbmeter/dbmeter/internal/pg/script"
)

// Result is one result set as text, as libpq hands it to pgbench: column
// names and rows, a nil cell for NULL.
type Result struct {
	Columns []string
	Rows    [][]*string
}

// A Fetcher runs a statement and returns every result it produced (several
// for a \; compound in simple mode) as text: what \gset and \aset need.
// Every session of the registered drivers implements it.
type Fetcher interface {
	Fetch(ctx context.Context, st *Stmt, args ...any) ([]Result, error)
}

var (
	_ Fetcher = (*pgxSession)(nil)
	_ Fetcher = (*sqlSession)(nil)
)

// textArgs turns parameter values into the text pgbench would send.
func textArgs(args []any) [][]byte {
	out := make([][]byte, len(args))
	for i, a := range args {
		if a != nil {
			out[i] = []byte(textArg(a))
		}
	}
	return out
}

// textArg is one parameter value as pgbench sends it.
func textArg(a any) string {
	switch a := a.(type) {
	case int64:
		return strconv.FormatInt(a, 10)
	case float64:
		return script.Double(a).String()
	case bool:
		return strconv.FormatBool(a)
	case string:
		return a
	}
	return fmt.Sprint(a)
}

// Fetch uses pgconn directly so results come back as the server's text,
// as in libpq.
func (s *pgxSession) Fetch(ctx context.Context, st *Stmt, args ...any) ([]Result, error) {
	pc := s.conn.PgConn()
	switch s.mode {
	case ModeSimple:
		rs, err := pc.Exec(ctx, st.Text(args)).ReadAll()
		if err != nil {
			return nil, err
		}
		out := make([]Result, 0, len(rs))
		for _, r := range rs {
			if r.Err != nil {
				return nil, r.Err
			}
			out = append(out, textResult(r.FieldDescriptions, r.Rows))
		}
		return out, nil
	case ModePrepared:
		if !s.prepared[st.Name] {
			if _, err := s.conn.Prepare(ctx, st.Name, st.SQL); err != nil {
				return nil, err
			}
			s.prepared[st.Name] = true
		}
		r := pc.ExecPrepared(ctx, st.Name, textArgs(args), nil, nil).Read()
		if r.Err != nil {
			return nil, r.Err
		}
		return []Result{textResult(r.FieldDescriptions, r.Rows)}, nil
	}
	r := pc.ExecParams(ctx, st.SQL, textArgs(args), nil, nil, nil).Read()
	if r.Err != nil {
		return nil, r.Err
	}
	return []Result{textResult(r.FieldDescriptions, r.Rows)}, nil
}

func textResult(fields []pgconn.FieldDescription, rows [][][]byte) Result {
	var res Result
	for _, f := range fields {
		res.Columns = append(res.Columns, f.Name)
	}
	for _, row := range rows {
		cells := make([]*string, len(row))
		for i, v := range row {
			if v != nil {
				s := string(v)
				cells[i] = &s
			}
		}
		res.Rows = append(res.Rows, cells)
	}
	return res
}

func (s *sqlSession) Fetch(ctx context.Context, st *Stmt, args ...any) ([]Result, error) {
	// Over pgx, go to pgconn as the native session does: database/sql
	// through pgx returns only the first result of a \; compound.
	var res []Result
	var ferr error
	native := false
	_ = s.conn.Raw(func(dc any) error {
		pc, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return nil
		}
		native = true
		if s.raw == nil {
			s.raw = &pgxSession{conn: pc.Conn(), mode: s.mode, prepared: map[string]bool{}, asText: map[string][]bool{}}
		}
		res, ferr = s.raw.Fetch(ctx, st, args...)
		return nil
	})
	if native {
		return res, ferr
	}
	rows, err := s.query(ctx, st, args)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Result
	for {
		cols, err := rows.Columns()
		if err != nil {
			return nil, err
		}
		res := Result{Columns: cols}
		for rows.Next() {
			cells := make([]sql.NullString, len(cols))
			ptrs := make([]any, len(cols))
			for i := range cells {
				ptrs[i] = &cells[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return nil, err
			}
			row := make([]*string, len(cols))
			for i, c := range cells {
				if c.Valid {
					v := c.String
					row[i] = &v
				}
			}
			res.Rows = append(res.Rows, row)
		}
		out = append(out, res)
		if !rows.NextResultSet() {
			break
		}
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	return out, rows.Err()
}
