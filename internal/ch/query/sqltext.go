package query

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Placeholders counts the ? placeholders of text outside quoted strings,
// quoted identifiers and comments.
func Placeholders(text string) int {
	n := 0
	scanSQL(text, func(int) { n++ })
	return n
}

// Inline replaces each ? placeholder of text by its argument written as a
// ClickHouse literal: what a client without parameter binding sends.
func Inline(text string, args []any) (string, error) {
	var b strings.Builder
	last, i := 0, 0
	var err error
	scanSQL(text, func(at int) {
		if i >= len(args) {
			i++
			return
		}
		b.WriteString(text[last:at])
		b.WriteString(Literal(args[i]))
		last = at + 1
		i++
	})
	if i != len(args) {
		return "", fmt.Errorf("query has %d placeholders but %d arguments", i, len(args))
	}
	b.WriteString(text[last:])
	return b.String(), err
}

// Param is a named server-side query parameter: ClickHouse's {name:Type}
// placeholders, which the server substitutes after parsing the query.
type Param struct {
	Name, Type string
	// Value is the value in the quoted form the native protocol carries
	// parameters in ('2024-01-01', '42').
	Value string
}

// Parameterize replaces each ? placeholder of text by a server-side
// parameter {pN:Type}, typed after its argument: what a client that binds
// on the server (ch-go) sends.
func Parameterize(text string, args []any) (string, []Param, error) {
	var b strings.Builder
	var params []Param
	last, i := 0, 0
	scanSQL(text, func(at int) {
		if i < len(args) {
			p := Param{Name: "p" + strconv.Itoa(i), Type: paramType(args[i]), Value: quote(plain(args[i]))}
			b.WriteString(text[last:at])
			b.WriteString("{" + p.Name + ":" + p.Type + "}")
			params = append(params, p)
			last = at + 1
		}
		i++
	})
	if i != len(args) {
		return "", nil, fmt.Errorf("query has %d placeholders but %d arguments", i, len(args))
	}
	b.WriteString(text[last:])
	return b.String(), params, nil
}

func paramType(v any) string {
	switch v.(type) {
	case int64, int:
		return "Int64"
	case uint64:
		return "UInt64"
	case float64:
		return "Float64"
	case time.Time:
		return "DateTime"
	}
	return "String"
}

// plain is v as text, unquoted.
func plain(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case time.Time:
		return v.Format(time.DateTime)
	}
	return strings.Trim(Literal(v), "'")
}

// scanSQL calls at for the offset of every placeholder.
func scanSQL(text string, at func(int)) {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\'', '"', '`':
			for i++; i < len(text) && text[i] != c; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '-':
			if i+1 < len(text) && text[i+1] == '-' {
				for i < len(text) && text[i] != '\n' {
					i++
				}
			}
		case '/':
			if i+1 < len(text) && text[i+1] == '*' {
				end := strings.Index(text[i+2:], "*/")
				if end < 0 {
					return
				}
				i += end + 3
			}
		case '?':
			at(i)
		}
	}
}

// Literal writes v as a ClickHouse literal.
func Literal(v any) string {
	switch v := v.(type) {
	case string:
		return quote(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case int:
		return strconv.Itoa(v)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return quote(strconv.FormatFloat(v, 'g', -1, 64))
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	case time.Time:
		return quote(v.Format(time.DateTime))
	}
	return quote(fmt.Sprint(v))
}

func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// ParseArg turns a --arg value into the Go value a client binds: an
// integer, a float, or else the string itself.
func ParseArg(s string) any {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xXnN") {
		return f
	}
	return s
}
