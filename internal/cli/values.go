package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The flag values pflag has no kind for: numbers that may be lists, and
// pgbench's milliseconds; and repeated, for declare.

// repeated is a list flag whose values are repeated, not split at commas
// (pflag's string array: --param a=1,2 is one value).
type repeated []string

// intList is a flag of one number or a comma list of them (a sweep where
// the command sweeps it). It prints as typed, so a single value records
// in a run's params as a plain number flag's would.
type intList []int

func (l *intList) Set(s string) error {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("want a whole number or a comma list of them, got %q", s)
		}
		out = append(out, v)
	}
	*l = out
	return nil
}

func (l *intList) String() string {
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l *intList) Type() string { return "intSlice" }

// floatList is intList for numbers with a fraction.
type floatList []float64

func (l *floatList) Set(s string) error {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return fmt.Errorf("want a number or a comma list of them, got %q", s)
		}
		out = append(out, v)
	}
	*l = out
	return nil
}

func (l *floatList) String() string {
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

func (l *floatList) Type() string { return "floatSlice" }

// millis is a time.Duration flag given in milliseconds, as pgbench's -L.
type millis time.Duration

func (m *millis) String() string {
	return strconv.FormatFloat(float64(*m)/float64(time.Millisecond), 'f', -1, 64)
}

func (m *millis) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("want a number of milliseconds, got %q", s)
	}
	*m = millis(v * float64(time.Millisecond))
	return nil
}

func (m *millis) Type() string { return "float" }
