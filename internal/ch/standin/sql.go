package standin

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ClickHouse/ch-go/proto"
)

// The stand-in is no SQL engine. It recognises the statement shapes
// dbmeter's paths and clients send (schema statements, INSERT, SELECT of
// columns, count(), sum(), min()/max(), toString() and friends, the
// system tables) and refuses the rest with NOT_IMPLEMENTED, so a test or
// a user learns at once what it does not answer.

// result is the answer to a SELECT: typed columns whose values are
// generated on demand.
type result struct {
	names, types []string
	rows         int
	value        func(col, row int) any
}

var (
	formatRe       = regexp.MustCompile(`(?is)\s+FORMAT\s+(\w+)\s*;?\s*$`)
	insertDataRe   = regexp.MustCompile(`(?is)^INSERT\s+INTO\s+(` + identRe + `(?:\.` + identRe + `)?)\s*(?:\(([^)]*)\))?\s*(?:VALUES\b.*|FORMAT\s+\w+)?\s*;?\s*$`)
	insertSelectRe = regexp.MustCompile(`(?is)^INSERT\s+INTO\s+(` + identRe + `(?:\.` + identRe + `)?)\s*(?:\([^)]*\))?\s*(SELECT\b.*)$`)
	selectRe       = regexp.MustCompile(`(?is)^SELECT\s+(DISTINCT\s+)?(.*?)(?:\s+FROM\s+(` + identRe + `(?:\.` + identRe + `)?))?(?:\s+WHERE\s+(.*?))?(?:\s+ORDER\s+BY\s+.*?)?(?:\s+LIMIT\s+(\d+))?\s*;?\s*$`)
	funcRe         = regexp.MustCompile(`(?is)^(\w+)\((.*)\)$`)
	aliasRe        = regexp.MustCompile(`(?is)^(.*?)\s+AS\s+` + identRe + `$`)
	condEqRe       = regexp.MustCompile(`(?is)^(\w+)\s*=\s*'([^']*)'$`)
	condInRe       = regexp.MustCompile(`(?is)^(\w+)\s+IN\s*\((.*)\)$`)
	andRe          = regexp.MustCompile(`(?i)\s+AND\s+`)
)

// normalize trims a statement and folds its whitespace runs to one space.
func normalize(q string) string { return strings.Join(strings.Fields(q), " ") }

// splitFormat cuts a trailing FORMAT clause off q.
func splitFormat(q string) (string, string) {
	if m := formatRe.FindStringSubmatchIndex(q); m != nil {
		return q[:m[0]], q[m[2]:m[3]]
	}
	return q, ""
}

// insertTarget says whether q is an INSERT that streams data blocks, and
// into which table and columns.
func insertTarget(q, db string) (name, []string, bool) {
	m := insertDataRe.FindStringSubmatch(q)
	if m == nil {
		return name{}, nil, false
	}
	var cols []string
	for _, c := range splitTop(m[2]) {
		cols = append(cols, strings.Trim(strings.TrimSpace(c), "`\""))
	}
	return parseName(m[1], db), cols, true
}

// info is what the functions describing the server answer.
type info struct {
	version, display, timezone, database string
	revision                             int
}

// query answers a SELECT.
func (c *catalog) query(q string, in info) (*result, error) {
	m := selectRe.FindStringSubmatch(q)
	if m == nil {
		return nil, errorf(codeNotImplemented, "the stand-in does not answer %q", short(q))
	}
	distinct, list, from, where, limitText := m[1] != "", m[2], m[3], m[4], m[5]
	limit := -1
	if limitText != "" {
		limit, _ = strconv.Atoi(limitText)
	}
	var src source
	switch n := parseName(from, in.database); {
	case from == "":
		src = source{rows: 1}
	case n.db == "system":
		rows, cols, err := c.systemRows(n.table)
		if err != nil {
			return nil, err
		}
		if rows, err = filter(rows, where); err != nil {
			return nil, err
		}
		src = source{cols: cols, rows: len(rows), sys: rows}
	default:
		cols, rows, err := c.table(n)
		if err != nil {
			return nil, err
		}
		src = source{cols: cols, rows: int(rows), where: where != ""}
	}
	exprs := splitTop(list)
	res := &result{}
	var vals []func(row int) any
	agg := false
	for _, e := range exprs {
		e = strings.TrimSpace(e)
		if am := aliasRe.FindStringSubmatch(e); am != nil {
			e = am[1]
		}
		x, err := src.compile(e, in)
		if err != nil {
			return nil, err
		}
		agg = agg || x.agg
		res.names = append(res.names, e)
		res.types = append(res.types, x.typ)
		vals = append(vals, x.val)
	}
	res.rows = src.rows
	switch {
	case agg:
		res.rows = 1
	case distinct:
		res.rows = min(res.rows, distinctRows)
	}
	if limit >= 0 {
		res.rows = min(res.rows, limit)
	}
	res.value = func(col, row int) any { return vals[col](row) }
	return res, nil
}

// distinctRows is how many rows a SELECT DISTINCT over a user table
// answers: the stand-in keeps no values to tell them apart.
const distinctRows = 100

func short(q string) string {
	if len(q) > 80 {
		return q[:80] + "…"
	}
	return q
}

// filter keeps the system rows meeting where: conditions col = 'v' and
// col IN ('a', 'b') joined by AND, which is all dbmeter asks.
func filter(rows []map[string]any, where string) ([]map[string]any, error) {
	if where == "" {
		return rows, nil
	}
	type cond struct {
		col  string
		vals []string
	}
	var conds []cond
	for _, part := range andRe.Split(where, -1) {
		part = strings.TrimSpace(part)
		if m := condEqRe.FindStringSubmatch(part); m != nil {
			conds = append(conds, cond{m[1], []string{m[2]}})
			continue
		}
		if m := condInRe.FindStringSubmatch(part); m != nil {
			var vals []string
			for _, v := range splitTop(m[2]) {
				vals = append(vals, strings.Trim(strings.TrimSpace(v), "'"))
			}
			conds = append(conds, cond{m[1], vals})
			continue
		}
		return nil, errorf(codeNotImplemented, "the stand-in filters system tables only by col = 'value' and col IN (…), not %q", part)
	}
	var out []map[string]any
next:
	for _, r := range rows {
		for _, c := range conds {
			v, ok := r[c.col]
			if !ok {
				return nil, errorf(codeNotImplemented, "no column %s in this system table", c.col)
			}
			found := false
			for _, want := range c.vals {
				found = found || fmt.Sprint(v) == want
			}
			if !found {
				continue next
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// source is what a SELECT reads: a user table (generated values), a
// system table (real rows) or nothing.
type source struct {
	cols  []column
	rows  int
	where bool             // a user table filtered: count() cannot be exact
	sys   []map[string]any // a system table's rows
}

type expr struct {
	typ string
	agg bool
	val func(row int) any
}

func (s source) column(n string) (column, bool) {
	for _, c := range s.cols {
		if c.Name == n {
			return c, true
		}
	}
	return column{}, false
}

// compile reads one item of a SELECT list.
func (s source) compile(e string, in info) (expr, error) {
	e = strings.TrimSpace(e)
	if n, err := strconv.ParseUint(e, 10, 64); err == nil {
		if n < 256 {
			return expr{typ: "UInt8", val: func(int) any { return uint8(n) }}, nil
		}
		return expr{typ: "UInt64", val: func(int) any { return n }}, nil
	}
	if len(e) >= 2 && e[0] == '\'' && e[len(e)-1] == '\'' {
		v := e[1 : len(e)-1]
		return expr{typ: "String", val: func(int) any { return v }}, nil
	}
	m := funcRe.FindStringSubmatch(e)
	if m == nil {
		c, ok := s.column(strings.Trim(e, "`"))
		if !ok {
			return expr{}, errorf(codeNotImplemented, "the stand-in cannot compute %q", e)
		}
		if s.sys != nil {
			rows := s.sys
			return expr{typ: c.Type, val: func(i int) any { return rows[i][c.Name] }}, nil
		}
		if _, err := generate(c.Type, c.Name, 0); err != nil {
			return expr{}, err
		}
		return expr{typ: c.Type, val: func(i int) any { v, _ := generate(c.Type, c.Name, i); return v }}, nil
	}
	fn, arg := strings.ToLower(m[1]), strings.TrimSpace(m[2])
	constant := func(typ string, v any) (expr, error) { return expr{typ: typ, val: func(int) any { return v }}, nil }
	switch fn {
	case "version":
		return constant("String", in.version)
	case "displayname", "hostname", "fqdn":
		return constant("String", in.display)
	case "revision":
		return constant("UInt32", uint32(in.revision))
	case "timezone":
		return constant("String", in.timezone)
	case "currentdatabase":
		return constant("String", in.database)
	case "now":
		return constant("DateTime", time.Now().Truncate(time.Second))
	case "count":
		n := uint64(s.rows)
		if s.where {
			n /= 100 // a fraction of the generated rows, as a filter would keep
		}
		return expr{typ: "UInt64", agg: true, val: func(int) any { return n }}, nil
	}
	inner, err := s.compile(arg, in)
	if err != nil {
		return expr{}, err
	}
	switch fn {
	case "sum", "avg":
		n := float64(s.rows)
		return expr{typ: "Float64", agg: true, val: func(int) any { return n / 2 }}, nil
	case "min":
		return expr{typ: inner.typ, agg: true, val: func(int) any { return inner.val(0) }}, nil
	case "max":
		last := max(s.rows-1, 0)
		return expr{typ: inner.typ, agg: true, val: func(int) any { return inner.val(last) }}, nil
	case "tostring":
		return expr{typ: "String", agg: inner.agg, val: func(i int) any { return valueText(inner.val(i)) }}, nil
	case "touint64", "touint32":
		typ := map[string]string{"touint64": "UInt64", "touint32": "UInt32"}[fn]
		return expr{typ: typ, agg: inner.agg, val: func(i int) any { return convertUint(inner.val(i), typ) }}, nil
	}
	return expr{}, errorf(codeNotImplemented, "the stand-in does not compute function %s", m[1])
}

// Generated values start here, so that dates and times look like data.
var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// generate is row i's value of a column of type typ named n: the same
// every time, distinct per row, so a client cannot be fooled by a cache.
func generate(typ, n string, i int) (any, error) {
	switch typ {
	case "String":
		return n + strconv.Itoa(i), nil
	case "UInt8":
		return uint8(i), nil
	case "UInt16":
		return uint16(i), nil
	case "UInt32":
		return uint32(i), nil
	case "UInt64":
		return uint64(i), nil
	case "Int8":
		return int8(i), nil
	case "Int16":
		return int16(i), nil
	case "Int32":
		return int32(i), nil
	case "Int64":
		return int64(i), nil
	case "Float32":
		return float32(i%100_000) / 4, nil
	case "Float64":
		return float64(i%100_000) / 100, nil
	case "Date":
		return epoch.AddDate(0, 0, i%90), nil
	case "DateTime":
		return epoch.Add(time.Duration(i) * time.Minute), nil
	}
	return nil, errorf(codeNotImplemented, "the stand-in does not generate values of type %s (column %s)", typ, n)
}

func valueText(v any) string {
	switch x := v.(type) {
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 {
			return x.Format(time.DateOnly)
		}
		return x.Format(time.DateTime)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

func convertUint(v any, typ string) any {
	var n uint64
	switch x := v.(type) {
	case time.Time:
		n = uint64(x.Unix())
	case uint8:
		n = uint64(x)
	case uint32:
		n = uint64(x)
	case uint64:
		n = x
	case int32:
		n = uint64(x)
	case int64:
		n = uint64(x)
	case float64:
		n = uint64(x)
	case string:
		n, _ = strconv.ParseUint(x, 10, 64)
	}
	if typ == "UInt32" {
		return uint32(n)
	}
	return n
}

// columns builds rows [from, to) of r as ch-go columns, to send in the
// Native format.
func (r *result) columns(from, to int) (proto.Input, error) {
	in := make(proto.Input, len(r.names))
	for c := range r.names {
		col, err := newColumn(r.types[c])
		if err != nil {
			return nil, err
		}
		for i := from; i < to; i++ {
			col.add(r.value(c, i))
		}
		in[c] = proto.InputColumn{Name: r.names[c], Data: col.data}
	}
	return in, nil
}

// builder appends generated values to one ch-go column.
type builder struct {
	data proto.ColInput
	add  func(v any)
}

func newColumn(typ string) (builder, error) {
	switch typ {
	case "String":
		c := new(proto.ColStr)
		return builder{c, func(v any) { c.Append(v.(string)) }}, nil
	case "UInt8":
		c := new(proto.ColUInt8)
		return builder{c, func(v any) { c.Append(v.(uint8)) }}, nil
	case "UInt16":
		c := new(proto.ColUInt16)
		return builder{c, func(v any) { c.Append(v.(uint16)) }}, nil
	case "UInt32":
		c := new(proto.ColUInt32)
		return builder{c, func(v any) { c.Append(v.(uint32)) }}, nil
	case "UInt64":
		c := new(proto.ColUInt64)
		return builder{c, func(v any) { c.Append(v.(uint64)) }}, nil
	case "Int8":
		c := new(proto.ColInt8)
		return builder{c, func(v any) { c.Append(v.(int8)) }}, nil
	case "Int16":
		c := new(proto.ColInt16)
		return builder{c, func(v any) { c.Append(v.(int16)) }}, nil
	case "Int32":
		c := new(proto.ColInt32)
		return builder{c, func(v any) { c.Append(v.(int32)) }}, nil
	case "Int64":
		c := new(proto.ColInt64)
		return builder{c, func(v any) { c.Append(v.(int64)) }}, nil
	case "Float32":
		c := new(proto.ColFloat32)
		return builder{c, func(v any) { c.Append(v.(float32)) }}, nil
	case "Float64":
		c := new(proto.ColFloat64)
		return builder{c, func(v any) { c.Append(v.(float64)) }}, nil
	case "Date":
		c := new(proto.ColDate)
		return builder{c, func(v any) { c.Append(v.(time.Time)) }}, nil
	case "DateTime":
		c := new(proto.ColDateTime)
		return builder{c, func(v any) { c.Append(v.(time.Time)) }}, nil
	}
	return builder{}, errorf(codeNotImplemented, "the stand-in does not send values of type %s", typ)
}
