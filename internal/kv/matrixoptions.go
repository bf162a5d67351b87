package kv

import (
	"fmt"
	"slices"

	"github.com/dbmeter/dbmeter/internal/load"
)

// MatrixOptions is one kv benchmark as a user asks for it, before it is checked.
type MatrixOptions struct {
	Engines []string // engine names, known to Lookup
	Ops     []string // operation names, known to CheckOps
	Fsync   string   // "false", "true" or "both"
	Spec    Spec
	Params  []string // engine.key=value settings
	Load    load.Config
	Repeat  int
	// Flags are recorded in every run's params.
	Flags map[string]string
}

// NewMatrix checks o and returns the matrix it asks for. Its Dir is left
// for the caller to set once the directory is prepared.
func NewMatrix(o MatrixOptions) (*Matrix, error) {
	if err := o.Spec.Validate(); err != nil {
		return nil, err
	}
	engines, err := CheckEngines(o.Engines)
	if err != nil {
		return nil, err
	}
	if len(engines) == 0 {
		return nil, fmt.Errorf("no engine to run: give one or more of %v", Names())
	}
	ops, err := CheckOps(o.Ops)
	if err != nil {
		return nil, err
	}
	var modes []bool
	switch o.Fsync {
	case "false", "off":
		modes = []bool{false}
	case "true", "on":
		modes = []bool{true}
	case "both":
		modes = []bool{false, true}
	default:
		return nil, fmt.Errorf("--fsync must be false (off), true (on) or both, got %q", o.Fsync)
	}
	params, err := SplitParams(o.Params)
	if err != nil {
		return nil, err
	}
	mixed := slices.Contains(ops, "setmixed") || slices.Contains(ops, "getmixed")
	if mixed && o.Load.Workers < 2 {
		return nil, fmt.Errorf("setmixed/getmixed need --workers 2 or more (one writer, the rest readers), got %d", o.Load.Workers)
	}
	if slices.Contains(ops, "del") && o.Spec.Keys < o.Load.Workers {
		return nil, fmt.Errorf("del needs --keys (%d) of at least --workers (%d)", o.Spec.Keys, o.Load.Workers)
	}
	return &Matrix{Engines: engines, Ops: ops, Fsync: modes, Spec: o.Spec, Params: params, Load: o.Load, Repeat: o.Repeat, Flags: o.Flags}, nil
}
