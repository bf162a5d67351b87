package insert

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// DefaultDatabase is dbmeter's own database, made when a table is created
// in it and missing.
const DefaultDatabase = "dbmeter"

// Mark is the comment dbmeter puts on a column (Schema.Mark) of every table it
// creates. ClickHouse 18.16 has no table comments (CREATE TABLE … COMMENT
// is a syntax error there) but has column comments, and a column comment
// lives and dies with its table: a table dropped and re-made by someone
// else loses the mark, which a list of names kept elsewhere would not see.
const Mark = "dbmeter:created"

// Table names the insert target.
type Table struct{ Database, Name string }

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ParseTable reads "db.name" or "name" (in DefaultDatabase).
func ParseTable(s string) (Table, error) {
	db, name, ok := strings.Cut(s, ".")
	if !ok {
		db, name = DefaultDatabase, s
	}
	if !identRe.MatchString(db) || !identRe.MatchString(name) {
		return Table{}, fmt.Errorf("table %q: want db.name or name, letters, digits and _ only", s)
	}
	return Table{Database: db, Name: name}, nil
}

// String is the quoted, qualified name for SQL.
func (t Table) String() string { return "`" + t.Database + "`.`" + t.Name + "`" }

// Plain is the name as a user writes it.
func (t Table) Plain() string { return t.Database + "." + t.Name }

// Admin does dbmeter's own statements (DDL, marks, row counts) over
// clickhouse-go v1, which every server version speaks.
type Admin struct{ db *sql.DB }

// OpenAdmin connects.
func OpenAdmin(ctx context.Context, d ch.DSN) (*Admin, error) {
	db, err := sql.Open(ch.V1Driver, d.Admin().V1())
	if err != nil {
		return nil, fmt.Errorf("connect to ClickHouse %s: %w", d.Addr, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to ClickHouse %s: %w", d.Addr, err)
	}
	return &Admin{db: db}, nil
}

// Close disconnects.
func (a *Admin) Close() error { return a.db.Close() }

// Count returns the rows in t.
func (a *Admin) Count(ctx context.Context, t Table) (int64, error) {
	var n uint64
	if err := a.db.QueryRowContext(ctx, "SELECT count() FROM "+t.String()).Scan(&n); err != nil {
		return 0, fmt.Errorf("count rows in %s: %w", t.Plain(), err)
	}
	return int64(n), nil
}

// TableError is a target table dbmeter will not use or touch.
type TableError struct{ msg string }

func (e *TableError) Error() string { return e.msg }

// Prepare makes t ready for inserts of schema s. With create, dbmeter
// (re)creates it: a table it marked is dropped and made again with
// extraColumns padding columns; an unmarked table is refused, never
// touched. Without create the table must exist and have s's columns.
func (a *Admin) Prepare(ctx context.Context, t Table, s Schema, create bool, extraColumns int, engine string) error {
	exists, err := a.exists(ctx, "SELECT count() FROM system.tables WHERE database = ? AND name = ?", t.Database, t.Name)
	if err != nil {
		return fmt.Errorf("look for table %s: %w", t.Plain(), err)
	}
	if !create {
		if !exists {
			return &TableError{fmt.Sprintf("table %s does not exist: add {Create} to have dbmeter create it", t.Plain())}
		}
		return a.checkColumns(ctx, t, s)
	}
	if exists {
		marked, err := a.marked(ctx, t)
		if err != nil {
			return err
		}
		if !marked {
			return &TableError{fmt.Sprintf("table %s exists and was not created by dbmeter (it has no column with the comment %q): dbmeter will not replace it; drop it yourself, or drop {Create} to insert into it, or pick another {Table}", t.Plain(), Mark)}
		}
		if _, err := a.db.ExecContext(ctx, "DROP TABLE "+t.String()); err != nil {
			return fmt.Errorf("drop dbmeter's table %s to re-create it: %w", t.Plain(), err)
		}
	}
	if _, err := a.db.ExecContext(ctx, "CREATE DATABASE IF NOT EXISTS `"+t.Database+"`"); err != nil {
		return fmt.Errorf("create database %s: %w", t.Database, err)
	}
	if _, err := a.db.ExecContext(ctx, CreateSQL(t, s, extraColumns, engine)); err != nil {
		return fmt.Errorf("create table %s: %w", t.Plain(), err)
	}
	return nil
}

func (a *Admin) exists(ctx context.Context, q string, args ...any) (bool, error) {
	var n uint64
	if err := a.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return false, err
	}
	return n > 0, nil
}

// marked reports whether t carries dbmeter's mark, on whichever column
// its schema put it.
func (a *Admin) marked(ctx context.Context, t Table) (bool, error) {
	return a.exists(ctx, "SELECT count() FROM system.columns WHERE database = ? AND table = ? AND comment = ?",
		t.Database, t.Name, Mark)
}

// checkColumns reports the columns of s that t lacks or has with another
// type.
func (a *Admin) checkColumns(ctx context.Context, t Table, s Schema) error {
	rows, err := a.db.QueryContext(ctx, "SELECT name, type FROM system.columns WHERE database = ? AND table = ?", t.Database, t.Name)
	if err != nil {
		return fmt.Errorf("read the columns of %s: %w", t.Plain(), err)
	}
	defer rows.Close()
	have := map[string]string{}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return fmt.Errorf("read the columns of %s: %w", t.Plain(), err)
		}
		have[name] = typ
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the columns of %s: %w", t.Plain(), err)
	}
	var problems []string
	for _, c := range s.Columns {
		switch typ, ok := have[c.Name]; {
		case !ok:
			problems = append(problems, c.Name+" missing")
		case typ != c.Type:
			problems = append(problems, fmt.Sprintf("%s is %s, want %s", c.Name, typ, c.Type))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	if len(problems) > 5 {
		problems = append(problems[:5], fmt.Sprintf("and %d more", len(problems)-5))
	}
	return &TableError{fmt.Sprintf("table %s does not have the %s columns (%s): point {Table} at another table, or use {Create} with a new name", t.Plain(), s.Name, strings.Join(problems, ", "))}
}

// Drop removes t if dbmeter created it, and refuses otherwise.
func (a *Admin) Drop(ctx context.Context, t Table) error {
	marked, err := a.marked(ctx, t)
	if err != nil {
		return err
	}
	if !marked {
		return &TableError{fmt.Sprintf("table %s was not created by dbmeter: not dropping it", t.Plain())}
	}
	if _, err := a.db.ExecContext(ctx, "DROP TABLE "+t.String()); err != nil {
		return fmt.Errorf("drop %s: %w", t.Plain(), err)
	}
	return nil
}

// IsTableError reports whether err is about the target table.
func IsTableError(err error) bool {
	var te *TableError
	return errors.As(err, &te)
}

// CreateSQL is the DDL of a table of schema s: its columns, extraColumns
// defaulted padding columns (seed 000's table had 689 columns, 32
// written), MergeTree in s's order. The syntax is the one ClickHouse has
// accepted since 1.1.54310 (2017), 18.16 included.
func CreateSQL(t Table, s Schema, extraColumns int, engine string) string {
	var sb strings.Builder
	sb.WriteString("CREATE TABLE " + t.String() + " (\n")
	for i, c := range s.Columns {
		if i > 0 {
			sb.WriteString(",\n")
		}
		sb.WriteString("  " + c.Name + " " + c.Type)
		if c.Name == s.Mark {
			sb.WriteString(" COMMENT '" + Mark + "'")
		}
	}
	pads := []string{"String DEFAULT ''", "Int64 DEFAULT 0", "Int32 DEFAULT 0"}
	for i := range extraColumns {
		fmt.Fprintf(&sb, ",\n  pad_%04d %s", i+1, pads[i%len(pads)])
	}
	if engine == EngineNull {
		sb.WriteString("\n) ENGINE = Null")
	} else {
		sb.WriteString("\n) ENGINE = MergeTree() ORDER BY " + s.OrderBy)
	}
	return sb.String()
}

// The table engines Config.Engine may name.
const (
	EngineMergeTree = "MergeTree"
	EngineNull      = "Null"
)
