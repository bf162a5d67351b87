package query

import (
	"fmt"
	"reflect"
)

// fakeRows serves users rows as database/sql would: one at a time.
type fakeRows struct{ i, n int }

func (f *fakeRows) types() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[uint64](), reflect.TypeFor[string](), reflect.TypeFor[float64]()}
}

func (f *fakeRows) name(i int) string { return fmt.Sprintf("user%d", i) }

func (f *fakeRows) nameBytes() int64 {
	var n int64
	for i := range f.n {
		n += int64(len(f.name(i)))
	}
	return n
}

func (f *fakeRows) Next() bool { f.i++; return f.i <= f.n }
func (f *fakeRows) Err() error { return nil }
func (f *fakeRows) Scan(dest ...any) error {
	*dest[0].(*uint64) = uint64(f.i)
	*dest[1].(*string) = f.name(f.i - 1)
	*dest[2].(*float64) = float64(f.i) / 3
	return nil
}
