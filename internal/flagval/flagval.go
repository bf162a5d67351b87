// Package flagval holds the flag values pflag has no kind for (numbers
// that may be lists, pgbench's milliseconds, strings repeated rather than
// split at commas) and binds a field to a flag of its type's kind.
package flagval

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Repeated is a list flag whose values are repeated, not split at commas
// (pflag's string array: --param a=1,2 is one value).
type Repeated []string

// IntList is a flag of one number or a comma list of them (a sweep where
// the command sweeps it). It prints as typed, so a single value records
// in a run's params as a plain number flag's would.
type IntList []int

func (l *IntList) Set(s string) error {
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

func (l *IntList) String() string {
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l *IntList) Type() string { return "intSlice" }

// FloatList is IntList for numbers with a fraction.
type FloatList []float64

func (l *FloatList) Set(s string) error {
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

func (l *FloatList) String() string {
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

func (l *FloatList) Type() string { return "floatSlice" }

// Millis is a time.Duration flag given in milliseconds, as pgbench's -L.
type Millis time.Duration

func (m *Millis) String() string {
	return strconv.FormatFloat(float64(*m)/float64(time.Millisecond), 'f', -1, 64)
}

func (m *Millis) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("want a number of milliseconds, got %q", s)
	}
	*m = Millis(v * float64(time.Millisecond))
	return nil
}

func (m *Millis) Type() string { return "float" }

// Bind registers a flag for the field at p as the kind its type says;
// its default is the value the field holds.
func Bind(fs *pflag.FlagSet, name, short string, p any, usage string) {
	switch p := p.(type) {
	case pflag.Value:
		fs.VarP(p, name, short, usage)
	case *string:
		fs.StringVarP(p, name, short, *p, usage)
	case *bool:
		fs.BoolVarP(p, name, short, *p, usage)
	case *int:
		fs.IntVarP(p, name, short, *p, usage)
	case *int64:
		fs.Int64VarP(p, name, short, *p, usage)
	case *uint64:
		fs.Uint64VarP(p, name, short, *p, usage)
	case *float64:
		fs.Float64VarP(p, name, short, *p, usage)
	case *time.Duration:
		fs.DurationVarP(p, name, short, *p, usage)
	case *[]string:
		fs.StringSliceVarP(p, name, short, *p, usage)
	case *Repeated:
		fs.StringArrayVarP((*[]string)(p), name, short, *p, usage)
	case *[]int:
		fs.IntSliceVarP(p, name, short, *p, usage)
	case *[]bool:
		fs.BoolSliceVarP(p, name, short, *p, usage)
	case *[]time.Duration:
		fs.DurationSliceVarP(p, name, short, *p, usage)
	default:
		// A declaration's mistake, met by every test that builds the
		// command tree.
		panic(fmt.Sprintf("flag %q: no flag binds a %T", name, p))
	}
}
