package kv

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
)

// Operations, in the order a matrix runs and prints them. Each runs on a
// store of its own, so the order changes no result; setmixed and getmixed
// come from one run.
var opOrder = []string{"set", "update", "get", "setmixed", "getmixed", "batchset", "del"}

// Ops returns the operation names dbmeter kv knows, in run order.
func Ops() []string { return slices.Clone(opOrder) }

// CheckOps returns ops in run order without duplicates, or an error naming
// the first unknown one and the known ones.
func CheckOps(ops []string) ([]string, error) {
	known := knownOps()
	for _, op := range ops {
		if !slices.Contains(known, op) {
			return nil, fmt.Errorf("unknown operation %q (known: %s)", op, strings.Join(known, ", "))
		}
	}
	var out []string
	for _, op := range known {
		if slices.Contains(ops, op) {
			out = append(out, op)
		}
	}
	return out, nil
}

// CheckEngines returns each engine, in the order given, without
// duplicates, or an error for the first one this build cannot run.
func CheckEngines(names []string) ([]engine.Engine, error) {
	var out []engine.Engine
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		e, err := engine.Lookup(n)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// SplitParams sorts --param engine.key=value settings by engine. A setting
// for an engine dbmeter does not know is an error; one for a known engine
// not in this run is kept (and checked) so a typo never passes silently.
func SplitParams(settings []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, s := range settings {
		name, value, ok := strings.Cut(s, "=")
		dot := strings.LastIndex(name, ".")
		if !ok || dot <= 0 || dot == len(name)-1 {
			return nil, fmt.Errorf("parameter %q: want engine.key=value, e.g. badger.value_threshold=1024", s)
		}
		eng, key := name[:dot], name[dot+1:]
		if _, err := engine.Lookup(eng); errors.Is(err, engine.ErrUnknownEngine) {
			return nil, fmt.Errorf("parameter %q: %w", s, err)
		}
		if out[eng] == nil {
			out[eng] = map[string]string{}
		}
		out[eng][key] = value
	}
	for eng, given := range out {
		e, err := engine.Lookup(eng)
		if err != nil {
			continue // not built in: Lookup's error comes if the run asks for it
		}
		if _, err := e.ResolveParams(given); err != nil {
			return nil, err
		}
	}
	return out, nil
}
