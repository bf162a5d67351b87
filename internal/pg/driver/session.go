package driver

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/pg/script"
)

// QueryMode is pgbench's -M: how statements travel.
type QueryMode uint8

const (
	// ModeSimple sends each statement as text with its values substituted,
	// over the simple query protocol.
	ModeSimple QueryMode = iota
	// ModeExtended sends each statement with its parameters through an
	// unnamed statement of the extended protocol, in one round trip.
	ModeExtended
	// ModePrepared prepares each statement once per session, by name, and
	// then only binds and executes it.
	ModePrepared
)

// Modes lists the query modes in pgbench's order.
func Modes() []QueryMode { return []QueryMode{ModeSimple, ModeExtended, ModePrepared} }

func (m QueryMode) String() string {
	switch m {
	case ModeSimple:
		return "simple"
	case ModeExtended:
		return "extended"
	case ModePrepared:
		return "prepared"
	}
	return fmt.Sprintf("QueryMode(%d)", m)
}

// ParseMode reads a -M value.
func ParseMode(s string) (QueryMode, error) {
	for _, m := range Modes() {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown query mode %q (want simple, extended or prepared)", s)
}

// A Driver opens sessions through one Go client. It must be safe for
// concurrent use: clients connect in parallel.
type Driver interface {
	Open(ctx context.Context, dsn string, mode QueryMode) (Session, error)
}

// DriverFunc adapts a function to Driver.
type DriverFunc func(ctx context.Context, dsn string, mode QueryMode) (Session, error)

// Open calls f.
func (f DriverFunc) Open(ctx context.Context, dsn string, mode QueryMode) (Session, error) {
	return f(ctx, dsn, mode)
}

// A Session is one connection, i.e. one pgbench client, used by one
// goroutine at a time. In ModePrepared a statement is prepared on its first
// use, keyed by Stmt.Name.
type Session interface {
	// Exec runs a statement that returns no rows.
	Exec(ctx context.Context, st *Stmt, args ...any) (rowsAffected int64, err error)
	// Query runs a statement and reads and counts every row it returns.
	Query(ctx context.Context, st *Stmt, args ...any) (rows int64, err error)
	Close(ctx context.Context) error
}

// Stmt is one statement of a script.
type Stmt struct {
	// Name keys the session's prepared statements; it is unique within a
	// benchmark.
	Name string
	// SQL has $1, $2, … placeholders.
	SQL string
	// Parts is SQL's source split around its placeholders (len(args)+1
	// pieces), for the simple protocol, where values are substituted in the
	// client as pgbench does.
	Parts []string
	// Query says the statement returns rows.
	Query bool
}

// Text returns the statement with args substituted as pgbench's simple mode
// does: numbers in decimal, text as it is.
func (st *Stmt) Text(args []any) string {
	if len(st.Parts) <= 1 {
		return st.SQL
	}
	var b strings.Builder
	b.Grow(len(st.SQL) + 8*len(args))
	for i, p := range st.Parts {
		b.WriteString(p)
		if i < len(args) {
			switch a := args[i].(type) {
			case int64:
				b.WriteString(strconv.FormatInt(a, 10))
			case float64:
				b.WriteString(script.Double(a).String()) // %.15g, as pgbench
			case bool:
				b.WriteString(strconv.FormatBool(a))
			case nil:
				b.WriteString("NULL")
			default:
				fmt.Fprint(&b, a)
			}
		}
	}
	return b.String()
}
