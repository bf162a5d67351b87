package kv

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/kvycsb"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/names"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// MatrixOptions is one kv benchmark as a user asks for it, before it is checked.
type MatrixOptions struct {
	Engines []string // engine names, known to Lookup, or "all"
	Ops     []string // operation names, known to CheckOps, or "all"
	Fsync   string   // "false", "true" or "both"
	Spec    workload.Spec
	Params  []string // engine.key=value settings
	Load    load.Config
	Repeat  int
	// Flags are recorded in every run's params.
	Flags map[string]string
	YCSB  kvycsb.Spec
	// Shape is ShapeCells or ShapeHarness (New).
	Shape string
	// Sharded says the user asked to shard the run, which kv refuses.
	Sharded bool
	// Given says whether the user set a field (by its name), so that a
	// shape's defaults replace only the ones left unset; nil: none was.
	Given func(field string) bool
}

// NewMatrix checks o and returns the matrix it asks for; its errors are
// the user's (usage errors). Its Dir is left for the caller to set once the
// directory is prepared.
func NewMatrix(o MatrixOptions) (*Matrix, error) {
	m, err := newMatrix(o)
	return m, usage.Wrap(err)
}

func newMatrix(o MatrixOptions) (*Matrix, error) {
	if err := o.Spec.Validate(); err != nil {
		return nil, err
	}
	sel, err := o.selection()
	if err != nil {
		return nil, err
	}
	engines, modes, params := sel.engines, sel.modes, sel.params
	ops, err := names.Parse("{Ops}", strings.Join(o.Ops, ","), knownOps())
	if err != nil {
		return nil, err
	}
	if ops, err = CheckOps(ops); err != nil {
		return nil, err
	}
	mixed := slices.Contains(ops, "setmixed") || slices.Contains(ops, "getmixed")
	if mixed && o.Load.Workers < 2 {
		return nil, fmt.Errorf("setmixed/getmixed need {Workers} 2 or more (one writer, the rest readers), got %d", o.Load.Workers)
	}
	if slices.Contains(ops, "del") && o.Spec.Keys < o.Load.Workers {
		return nil, fmt.Errorf("del needs {Keys} (%d) of at least {Workers} (%d)", o.Spec.Keys, o.Load.Workers)
	}
	if err := checkYCSB(ops, o); err != nil {
		return nil, err
	}
	return &Matrix{Engines: engines, Ops: ops, Fsync: modes, Spec: o.Spec, Params: params, Load: o.Load, Repeat: o.Repeat, Flags: o.Flags, YCSB: o.YCSB}, nil
}

// engineNames reads the Engines option: "all", or names, each known to dbmeter (a
// typo gets the closest name suggested) though perhaps not built into this
// binary, which CheckEngines says.
func engineNames(list []string) ([]string, error) {
	var out []string
	for _, n := range list {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	if len(out) == 1 && out[0] == "all" {
		return engine.Names(), nil
	}
	var bad []string
	for _, n := range out {
		if _, err := engine.Lookup(n); errors.Is(err, engine.ErrUnknownEngine) {
			bad = append(bad, n)
		}
	}
	if len(bad) > 0 { // every one at once, not one per run of the command
		return nil, names.UnknownAll("{Engines}", bad, engine.Names())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("{Engines} is empty: give one or more of %s", strings.Join(engine.Names(), ", "))
	}
	return out, nil
}

// paramsSelected refuses a parameter for an engine the run does not
// measure: it would be ignored, and the user believe it applied.
func paramsSelected(params map[string]map[string]string, engines []string) error {
	var off []string
	for _, e := range slices.Sorted(maps.Keys(params)) {
		if !slices.Contains(engines, e) {
			for _, k := range slices.Sorted(maps.Keys(params[e])) {
				off = append(off, e+"."+k)
			}
		}
	}
	if len(off) == 0 {
		return nil
	}
	return fmt.Errorf("{Params} %s: no such engine in {Engines} (%s): add the engine or drop the parameter", strings.Join(off, ", "), strings.Join(engines, ", "))
}

// fsyncModes reads the Fsync option.
func fsyncModes(fsync string) ([]bool, error) {
	switch fsync {
	case "false", "off":
		return []bool{false}, nil
	case "true", "on":
		return []bool{true}, nil
	case "both":
		return []bool{false, true}, nil
	}
	return nil, fmt.Errorf("{Fsync} must be false (off), true (on) or both, got %q", fsync)
}

// selection is what both shapes read the same way from the options: the
// engines, the fsync modes and the engines' own knobs.
type selection struct {
	engines []engine.Engine
	modes   []bool
	params  map[string]map[string]string
}

func (o MatrixOptions) selection() (selection, error) {
	list, err := engineNames(o.Engines)
	if err != nil {
		return selection{}, err
	}
	engines, err := CheckEngines(list)
	if err != nil {
		return selection{}, err
	}
	modes, err := fsyncModes(o.Fsync)
	if err != nil {
		return selection{}, err
	}
	params, err := SplitParams(o.Params)
	if err != nil {
		return selection{}, err
	}
	if err := paramsSelected(params, list); err != nil {
		return selection{}, err
	}
	return selection{engines: engines, modes: modes, params: params}, nil
}
