package standin

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// catalog is the stand-in's schema: databases, tables and their columns,
// and the rows each table was sent. It keeps no values: the stand-in
// discards what it is sent, like ENGINE = Null, and answers SELECTs with
// generated values of the columns' types.
type catalog struct {
	mu  sync.Mutex
	dbs map[string]map[string]*table
}

type table struct {
	cols []column
	rows int64
}

type column struct{ Name, Type, Comment string }

func newCatalog() *catalog {
	return &catalog{dbs: map[string]map[string]*table{"default": {}, "system": {}}}
}

// exception is a server error as ClickHouse reports it: a code from
// ClickHouse's ErrorCodes and a message.
type exception struct {
	Code int
	Msg  string
}

func (e *exception) Error() string { return fmt.Sprintf("code %d: %s", e.Code, e.Msg) }

// ClickHouse error codes the stand-in answers with.
const (
	codeNotImplemented  = 48
	codeUnknownTable    = 60
	codeSyntaxError     = 62
	codeUnknownDatabase = 81
	codeDatabaseExists  = 82
	codeUnknownSetting  = 115
	codeTableExists     = 57
	codeQueryCancelled  = 394
)

func errorf(code int, format string, args ...any) *exception {
	return &exception{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// name is a database-qualified table name.
type name struct{ db, table string }

func (n name) String() string { return n.db + "." + n.table }

var identRe = `(?:` + "`[^`]+`" + `|[A-Za-z_][A-Za-z0-9_]*)`

// parseName reads "db.t" or "t" (in db), with or without backquotes.
func parseName(s, db string) name {
	parts := strings.SplitN(s, ".", 2)
	unq := func(x string) string { return strings.Trim(x, "`\"") }
	if len(parts) == 1 {
		return name{db, unq(parts[0])}
	}
	return name{unq(parts[0]), unq(parts[1])}
}

func (c *catalog) lookup(n name) (*table, error) {
	tables, ok := c.dbs[n.db]
	if !ok {
		return nil, errorf(codeUnknownDatabase, "Database %s does not exist", n.db)
	}
	t, ok := tables[n.table]
	if !ok {
		return nil, errorf(codeUnknownTable, "Table %s does not exist", n)
	}
	return t, nil
}

// Table returns a copy of the named table's columns and its row count.
func (c *catalog) table(n name) ([]column, int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.lookup(n)
	if err != nil {
		return nil, 0, err
	}
	return append([]column(nil), t.cols...), t.rows, nil
}

// addRows counts rows inserted into n.
func (c *catalog) addRows(n name, rows int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.lookup(n)
	if err != nil {
		return err
	}
	t.rows += rows
	return nil
}

var (
	createDBRe    = regexp.MustCompile(`(?is)^CREATE DATABASE (IF NOT EXISTS )?(` + identRe + `)`)
	dropDBRe      = regexp.MustCompile(`(?is)^DROP DATABASE (IF EXISTS )?(` + identRe + `)`)
	createTableRe = regexp.MustCompile(`(?is)^CREATE TABLE (IF NOT EXISTS )?(` + identRe + `(?:\.` + identRe + `)?)\s*\((.*)\)\s*ENGINE\b`)
	dropTableRe   = regexp.MustCompile(`(?is)^DROP TABLE (IF EXISTS )?(` + identRe + `(?:\.` + identRe + `)?)`)
	truncateRe    = regexp.MustCompile(`(?is)^TRUNCATE (?:TABLE )?(IF EXISTS )?(` + identRe + `(?:\.` + identRe + `)?)`)
	columnDefRe   = regexp.MustCompile(`(?is)^(` + identRe + `)\s+(.+?)(?:\s+(?:DEFAULT|MATERIALIZED|ALIAS|CODEC)\b.*?)?(?:\s+COMMENT\s+'([^']*)')?$`)
)

// ddl runs a schema statement; ok is false when q is not one.
func (c *catalog) ddl(q, db string) (ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m := createDBRe.FindStringSubmatch(q); m != nil {
		n := strings.Trim(m[2], "`")
		if _, exists := c.dbs[n]; exists && m[1] == "" {
			return true, errorf(codeDatabaseExists, "Database %s already exists", n)
		}
		if c.dbs[n] == nil {
			c.dbs[n] = map[string]*table{}
		}
		return true, nil
	}
	if m := dropDBRe.FindStringSubmatch(q); m != nil {
		n := strings.Trim(m[2], "`")
		if _, exists := c.dbs[n]; !exists && m[1] == "" {
			return true, errorf(codeUnknownDatabase, "Database %s does not exist", n)
		}
		delete(c.dbs, n)
		return true, nil
	}
	if m := createTableRe.FindStringSubmatch(q); m != nil {
		n := parseName(m[2], db)
		tables, exists := c.dbs[n.db]
		if !exists {
			return true, errorf(codeUnknownDatabase, "Database %s does not exist", n.db)
		}
		if _, exists := tables[n.table]; exists {
			if m[1] != "" {
				return true, nil
			}
			return true, errorf(codeTableExists, "Table %s already exists", n)
		}
		var cols []column
		for _, def := range splitTop(m[3]) {
			cm := columnDefRe.FindStringSubmatch(strings.TrimSpace(def))
			if cm == nil {
				return true, errorf(codeSyntaxError, "cannot read the column definition %q", def)
			}
			cols = append(cols, column{Name: strings.Trim(cm[1], "`"), Type: strings.TrimSpace(cm[2]), Comment: cm[3]})
		}
		tables[n.table] = &table{cols: cols}
		return true, nil
	}
	if m := dropTableRe.FindStringSubmatch(q); m != nil {
		n := parseName(m[2], db)
		if _, err := c.lookup(n); err != nil {
			if m[1] != "" {
				return true, nil
			}
			return true, err
		}
		delete(c.dbs[n.db], n.table)
		return true, nil
	}
	if m := truncateRe.FindStringSubmatch(q); m != nil {
		n := parseName(m[2], db)
		t, err := c.lookup(n)
		if err != nil {
			if m[1] != "" {
				return true, nil
			}
			return true, err
		}
		t.rows = 0
		return true, nil
	}
	return false, nil
}

// splitTop splits s at the commas outside parentheses and quotes.
func splitTop(s string) []string {
	var out []string
	depth, start, quote := 0, 0, false
	for i, r := range s {
		switch {
		case r == '\'':
			quote = !quote
		case quote:
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

// systemRows returns the rows of one of the system tables the stand-in
// keeps (databases, tables, columns, settings), as column → value.
func (c *catalog) systemRows(tbl string) ([]map[string]any, []column, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var rows []map[string]any
	var cols []column
	dbNames := make([]string, 0, len(c.dbs))
	for n := range c.dbs {
		dbNames = append(dbNames, n)
	}
	sort.Strings(dbNames)
	switch tbl {
	case "databases":
		cols = []column{{Name: "name", Type: "String"}}
		for _, db := range dbNames {
			rows = append(rows, map[string]any{"name": db})
		}
	case "tables":
		cols = []column{{Name: "database", Type: "String"}, {Name: "name", Type: "String"}, {Name: "total_rows", Type: "UInt64"}}
		for _, db := range dbNames {
			for _, t := range sortedKeys(c.dbs[db]) {
				rows = append(rows, map[string]any{"database": db, "name": t, "total_rows": uint64(c.dbs[db][t].rows)})
			}
		}
	case "columns":
		cols = []column{{Name: "database", Type: "String"}, {Name: "table", Type: "String"}, {Name: "name", Type: "String"}, {Name: "type", Type: "String"}, {Name: "comment", Type: "String"}}
		for _, db := range dbNames {
			for _, t := range sortedKeys(c.dbs[db]) {
				for _, col := range c.dbs[db][t].cols {
					rows = append(rows, map[string]any{"database": db, "table": t, "name": col.Name, "type": col.Type, "comment": col.Comment})
				}
			}
		}
	case "settings":
		cols = []column{{Name: "name", Type: "String"}, {Name: "value", Type: "String"}}
		for _, s := range knownSettingNames() {
			rows = append(rows, map[string]any{"name": s, "value": ""})
		}
	default:
		return nil, nil, errorf(codeUnknownTable, "Table system.%s does not exist in the stand-in (it keeps databases, tables, columns and settings)", tbl)
	}
	return rows, cols, nil
}

func sortedKeys(m map[string]*table) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// numbersRe finds the row count of an INSERT … SELECT … FROM numbers(N).
var numbersRe = regexp.MustCompile(`(?is)\bFROM\s+numbers\((\d+)\)`)

// insertSelectRows is how many rows an INSERT … SELECT makes: N from
// numbers(N), one for a SELECT of constants.
func insertSelectRows(sel string) (int64, error) {
	if m := numbersRe.FindStringSubmatch(sel); m != nil {
		return strconv.ParseInt(m[1], 10, 64)
	}
	if regexp.MustCompile(`(?is)\bFROM\b`).MatchString(sel) {
		return 0, errorf(codeNotImplemented, "the stand-in runs INSERT … SELECT only from numbers(N) or of constants")
	}
	return 1, nil
}
