package script

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// kind is the type of a Value.
type kind uint8

const (
	unset kind = iota
	null
	boolean
	integer
	double
	text // a string not yet read as a value: -D, \gset, \aset
)

// Value is a variable's value: NULL, a boolean, an integer, a double, or
// text that is read as one of those when an expression uses it (as pgbench
// keeps -D and \gset values).
type Value struct {
	k kind
	b bool
	i int64
	f float64
	s string
}

// Null returns the NULL Value.
func Null() Value { return Value{k: null} }

// Bool returns a boolean Value.
func Bool(b bool) Value { return Value{k: boolean, b: b} }

// Int returns an integer Value.
func Int(i int64) Value { return Value{k: integer, i: i} }

// Double returns a double Value.
func Double(f float64) Value { return Value{k: double, f: f} }

// Text returns the Value of a -D definition or a \gset column: the text
// itself, read as a number, boolean or NULL only when an expression uses it.
func Text(s string) Value { return Value{k: text, s: s} }

// IsSet reports whether v holds a value.
func (v Value) IsSet() bool { return v.k != unset }

// Arg is v as a query parameter: int64, float64, bool, string, or nil for
// NULL. A double carries the 15 significant digits pgbench sends as text.
func (v Value) Arg() any {
	switch v.k {
	case integer:
		return v.i
	case double:
		f, err := strconv.ParseFloat(formatDouble(v.f), 64)
		if err != nil {
			return v.f // NaN and infinities
		}
		return f
	case boolean:
		return v.b
	case null:
		return nil
	}
	return v.s
}

// AppendText appends v as pgbench writes a variable into SQL: text as it
// is, integers in decimal, doubles with 15 significant digits (%.15g),
// booleans as true/false, NULL as NULL.
func (v Value) AppendText(b []byte) []byte {
	switch v.k {
	case integer:
		return strconv.AppendInt(b, v.i, 10)
	case double:
		return append(b, formatDouble(v.f)...)
	case boolean:
		return strconv.AppendBool(b, v.b)
	case null:
		return append(b, "NULL"...)
	}
	return append(b, v.s...)
}

func (v Value) String() string { return string(v.AppendText(nil)) }

// formatDouble is C's %.15g.
func formatDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', 15, 64)
}

// typeName is pgbench's name for v's type in error messages.
func (v Value) typeName() string {
	switch v.k {
	case null:
		return "null"
	case boolean:
		return "boolean"
	case integer:
		return "int"
	case double:
		return "double"
	}
	return "none"
}

// resolve reads text as pgbench's makeVariableValue does: null, boolean
// words and their prefixes, an integer, else a double.
func (v Value) resolve(name string) (Value, error) {
	if v.k != text {
		return v, nil
	}
	s := v.s
	if s == "" {
		return Value{}, fmt.Errorf("malformed variable %q value: %q", name, s)
	}
	prefix := func(word string) bool { return len(s) <= len(word) && strings.EqualFold(s, word[:len(s)]) }
	switch {
	case strings.EqualFold(s, "null"):
		return Null(), nil
	case prefix("true") || prefix("yes") || strings.EqualFold(s, "on"):
		return Bool(true), nil
	case prefix("false") || prefix("no") || strings.EqualFold(s, "off") || strings.EqualFold(s, "of"):
		return Bool(false), nil
	case isAnInt(s):
		i, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return Value{}, fmt.Errorf("malformed variable %q value: %q", name, s)
		}
		return Int(i), nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return Value{}, fmt.Errorf("malformed variable %q value: %q", name, s)
	}
	return Double(f), nil
}

// isAnInt is pgbench's is_an_int: optional spaces and sign, digits,
// optional trailing spaces.
func isAnInt(s string) bool {
	s = strings.TrimLeft(s, " \t\n\r\f\v")
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n > 0 && strings.TrimRight(s[n:], " \t\n\r\f\v") == ""
}

// toBool, toInt and toDouble coerce as pgbench does, with its messages.
func (v Value) toBool() (bool, error) {
	if v.k == boolean {
		return v.b, nil
	}
	return false, fmt.Errorf("cannot coerce %s to boolean", v.typeName())
}

func (v Value) toInt() (int64, error) {
	switch v.k {
	case integer:
		return v.i, nil
	case double:
		d := math.RoundToEven(v.f)
		if math.IsNaN(d) || d < -9.2233720368547758e18 || d >= 9.2233720368547758e18 {
			return 0, fmt.Errorf("double to int overflow for %f", d)
		}
		return int64(d), nil
	}
	return 0, fmt.Errorf("cannot coerce %s to int", v.typeName())
}

func (v Value) toDouble() (float64, error) {
	switch v.k {
	case double:
		return v.f, nil
	case integer:
		return float64(v.i), nil
	}
	return 0, fmt.Errorf("cannot coerce %s to double", v.typeName())
}

// truth is pgbench's valueTruth, used by \if and CASE: non-zero numbers and
// true are true; zero, false and NULL are false.
func (v Value) truth() bool {
	switch v.k {
	case boolean:
		return v.b
	case integer:
		return v.i != 0
	case double:
		return v.f != 0
	}
	return false
}
