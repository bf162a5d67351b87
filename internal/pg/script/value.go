package script

import (
	"fmt"
	"strconv"
)

// kind is the type of a Value.
type kind uint8

const (
	unset kind = iota
	integer
	double
	text
)

// Value is a variable's value: an integer, a double or (from -D) text.
type Value struct {
	k kind
	i int64
	f float64
	s string
}

// Int returns an integer Value.
func Int(i int64) Value { return Value{k: integer, i: i} }

// Double returns a double Value.
func Double(f float64) Value { return Value{k: double, f: f} }

// Text returns the Value of a -D definition: an integer or a double when
// the text reads as one, as pgbench does, else the text itself.
func Text(s string) Value {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Int(i)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return Double(f)
	}
	return Value{k: text, s: s}
}

// IsSet reports whether v holds a value.
func (v Value) IsSet() bool { return v.k != unset }

// Arg is v as a query parameter: int64, float64 or string.
func (v Value) Arg() any {
	switch v.k {
	case integer:
		return v.i
	case double:
		return v.f
	}
	return v.s
}

// AppendText appends v as pgbench substitutes it into a simple-protocol
// query: numbers in decimal, text as it is.
func (v Value) AppendText(b []byte) []byte {
	switch v.k {
	case integer:
		return strconv.AppendInt(b, v.i, 10)
	case double:
		return strconv.AppendFloat(b, v.f, 'g', -1, 64)
	}
	return append(b, v.s...)
}

func (v Value) String() string { return string(v.AppendText(nil)) }

// num returns v as a number for arithmetic.
func (v Value) num() (Value, error) {
	switch v.k {
	case integer, double:
		return v, nil
	case text:
		t := Text(v.s)
		if t.k == text {
			return Value{}, fmt.Errorf("%q is not a number", v.s)
		}
		return t, nil
	}
	return Value{}, fmt.Errorf("undefined value")
}

func (v Value) float() float64 {
	if v.k == double {
		return v.f
	}
	return float64(v.i)
}
