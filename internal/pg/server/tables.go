package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/dbmeter/dbmeter/internal/pg/driver"
)

// Tables are pgbench's tables, in the order pgbench lists them.
func Tables() []string {
	return []string{"pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"}
}

// OwnerMark is the comment dbmeter puts on every table it creates. Only
// tables carrying it are dropped or emptied without --force.
const OwnerMark = "created by dbmeter"

// TableState says which pgbench tables exist in the connected database and
// which of them dbmeter created.
type TableState struct {
	Exists map[string]bool
	Ours   map[string]bool
}

// Missing lists the pgbench tables that do not exist.
func (s TableState) Missing() []string {
	var out []string
	for _, t := range Tables() {
		if !s.Exists[t] {
			out = append(out, t)
		}
	}
	return out
}

// Foreign lists the pgbench tables that exist but that dbmeter did not
// create.
func (s TableState) Foreign() []string {
	var out []string
	for _, t := range Tables() {
		if s.Exists[t] && !s.Ours[t] {
			out = append(out, t)
		}
	}
	return out
}

// ReadTables looks the pgbench tables up in the connection's search path.
func ReadTables(ctx context.Context, conn *pgx.Conn) (TableState, error) {
	st := TableState{Exists: map[string]bool{}, Ours: map[string]bool{}}
	rows, err := conn.Query(ctx, `SELECT c.relname, coalesce(obj_description(c.oid, 'pg_class'), '')
		FROM pg_class c WHERE c.relname = ANY($1) AND c.relkind IN ('r', 'p') AND pg_table_is_visible(c.oid)`, Tables())
	if err != nil {
		return st, fmt.Errorf("look up the pgbench tables: %w", err)
	}
	for rows.Next() {
		var name, comment string
		if err := rows.Scan(&name, &comment); err != nil {
			return st, fmt.Errorf("look up the pgbench tables: %w", err)
		}
		st.Exists[name] = true
		st.Ours[name] = comment == OwnerMark
	}
	if err := rows.Err(); err != nil {
		return st, fmt.Errorf("look up the pgbench tables: %w", err)
	}
	return st, nil
}

// ErrNoTables means the pgbench tables are missing.
var ErrNoTables = errors.New("pgbench tables missing")

// CheckTables fails with one line naming the missing tables.
func CheckTables(st TableState, where string) error {
	if m := st.Missing(); len(m) > 0 {
		return fmt.Errorf("%w in %s: %s; initialise them with: dbmeter pg {Initialize} {Scale} SCALE (or pgbench -i)", ErrNoTables, where, strings.Join(m, ", "))
	}
	return nil
}

// Scale reads the scaling factor as pgbench does: the rows of
// pgbench_branches.
func Scale(ctx context.Context, conn *pgx.Conn) (int64, error) {
	var n int64
	if err := conn.QueryRow(ctx, "select count(*) from pgbench_branches").Scan(&n); err != nil {
		if driver.SQLState(err) == "42P01" {
			return 0, fmt.Errorf("%w: pgbench_branches does not exist; initialise with: dbmeter pg {Initialize} {Scale} SCALE (or pgbench -i)", ErrNoTables)
		}
		return 0, fmt.Errorf("read the scale from pgbench_branches: %w", err)
	}
	if n == 0 {
		return 0, errors.New("pgbench_branches is empty, so the scale is unknown: re-initialise with dbmeter pg {Initialize} {Scale} SCALE, or give {Scale}")
	}
	return n, nil
}

// ServerVersion returns the server's version string.
func ServerVersion(ctx context.Context, conn *pgx.Conn) (string, error) {
	var v string
	if err := conn.QueryRow(ctx, "show server_version").Scan(&v); err != nil {
		return "", fmt.Errorf("read the server version: %w", err)
	}
	return v, nil
}

// Vacuum does what pgbench does before a run unless -n: vacuum the branches
// and tellers and empty the history. The history is emptied only when
// dbmeter created it (or force is set); it reports whether it was.
func Vacuum(ctx context.Context, conn *pgx.Conn, st TableState, force bool) (truncated bool, err error) {
	for _, t := range []string{"pgbench_branches", "pgbench_tellers"} {
		if !st.Exists[t] {
			continue
		}
		if _, err := conn.Exec(ctx, "vacuum "+t); err != nil {
			return false, fmt.Errorf("vacuum %s: %w", t, err)
		}
	}
	if st.Exists["pgbench_history"] && (st.Ours["pgbench_history"] || force) {
		if _, err := conn.Exec(ctx, "truncate pgbench_history"); err != nil {
			return false, fmt.Errorf("truncate pgbench_history: %w", err)
		}
		return true, nil
	}
	return false, nil
}

// VacuumAccounts is the extra step of pgbench's -v.
func VacuumAccounts(ctx context.Context, conn *pgx.Conn, st TableState) error {
	if !st.Exists["pgbench_accounts"] {
		return nil
	}
	if _, err := conn.Exec(ctx, "vacuum analyze pgbench_accounts"); err != nil {
		return fmt.Errorf("vacuum analyze pgbench_accounts: %w", err)
	}
	return nil
}
