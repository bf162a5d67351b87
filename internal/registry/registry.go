// Package registry is the one shape of dbmeter's registries of engines,
// drivers and client paths: a name for each entry, the Go modules whose
// version changes its numbers, and the family's value. A family builds its
// registry once from one literal list, one line per entry, so adding an
// engine, driver or client is its file plus one line; `dbmeter version`
// lists the modules every registry names.
package registry

import (
	"errors"
	"fmt"
	"slices"

	"github.com/dbmeter/dbmeter/internal/names"
)

// Entry is one registered engine, driver or client path.
type Entry[T any] struct {
	Name string
	// Modules are the Go modules whose version changes the entry's numbers,
	// the one that does the work first; none for dbmeter's own code and
	// for clients that run outside dbmeter.
	Modules []string
	// Missing, when set, says why this build cannot use the entry ("not
	// built in (build with -tags rocksdb)"): it is known, so its name is
	// not a typo, but Lookup refuses it and Names leaves it out.
	Missing string
	Value   T
}

// Registry maps names to entries. It is a value built by New and never
// changed: its methods return copies.
type Registry[T any] struct {
	kind    string
	entries []Entry[T]
}

// New returns the registry of entries, kept in the order given (the order
// Names lists them in). kind names what an entry is ("engine", "driver",
// "client") in Lookup's errors. A name given twice is a programming error.
func New[T any](kind string, entries []Entry[T]) Registry[T] {
	for i, e := range entries {
		if e.Name == "" || slices.ContainsFunc(entries[:i], func(o Entry[T]) bool { return o.Name == e.Name }) {
			panic(fmt.Sprintf("registry of %ss: empty or repeated name %q", kind, e.Name))
		}
	}
	return Registry[T]{kind: kind, entries: slices.Clone(entries)}
}

// ErrUnknown is what Lookup's error matches (errors.Is) for a name the
// registry does not hold at all, as opposed to one this build cannot use.
var ErrUnknown = errors.New("unknown name")

// unknownError is Lookup's error for a name the registry does not hold.
type unknownError struct{ error }

func (unknownError) Is(target error) bool { return target == ErrUnknown }

// Lookup returns the value registered as name. A name the registry does
// not hold is an error that suggests the closest name and lists the usable
// ones; a known name this build cannot use is an error saying why.
func (r Registry[T]) Lookup(name string) (T, error) {
	var zero T
	e, ok := r.entry(name)
	switch {
	case !ok:
		return zero, unknownError{names.NotIn(r.kind, name, r.Names())}
	case e.Missing != "":
		return zero, fmt.Errorf("%s %s is %s", r.kind, name, e.Missing)
	}
	return e.Value, nil
}

// Known reports whether the registry holds name, usable in this build or
// not.
func (r Registry[T]) Known(name string) bool {
	_, ok := r.entry(name)
	return ok
}

func (r Registry[T]) entry(name string) (Entry[T], bool) {
	i := slices.IndexFunc(r.entries, func(e Entry[T]) bool { return e.Name == name })
	if i < 0 {
		return Entry[T]{}, false
	}
	return r.entries[i], true
}

// Names lists the entries this build can use, in registration order.
func (r Registry[T]) Names() []string {
	var out []string
	for _, e := range r.entries {
		if e.Missing == "" {
			out = append(out, e.Name)
		}
	}
	return out
}

// Entries returns every entry, usable in this build or not, in
// registration order.
func (r Registry[T]) Entries() []Entry[T] {
	out := slices.Clone(r.entries)
	for i := range out {
		out[i].Modules = slices.Clone(out[i].Modules)
	}
	return out
}

// Modules lists, sorted and once each, the modules of the entries this
// build can use: what `dbmeter version` reports for the registry.
func (r Registry[T]) Modules() []string {
	var out []string
	for _, e := range r.entries {
		if e.Missing == "" {
			out = append(out, e.Modules...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
