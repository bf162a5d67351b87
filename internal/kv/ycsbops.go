package kv

import (
	"fmt"
	"slices"

	"github.com/dbmeter/dbmeter/internal/kv/kvycsb"
	"github.com/dbmeter/dbmeter/internal/ycsb"
)

// knownOps are every operation --ops takes: the seed's, then YCSB's.
func knownOps() []string { return append(Ops(), kvycsb.Ops()...) }

// checkYCSB checks what the YCSB operations among ops need.
func checkYCSB(ops []string, o MatrixOptions) error {
	if !slices.ContainsFunc(ops, kvycsb.IsOp) {
		return nil
	}
	if err := o.YCSB.Validate(); err != nil {
		return err
	}
	if slices.Contains(ops, kvycsb.LoadOp) && o.Spec.Keys < o.Load.Workers {
		return fmt.Errorf("ycsb-load needs {Keys} (%d) of at least {Workers} (%d)", o.Spec.Keys, o.Load.Workers)
	}
	latest := o.YCSB.Distribution == ycsb.DistLatest && slices.ContainsFunc(ops, func(op string) bool { return kvycsb.IsOp(op) && op != kvycsb.LoadOp }) ||
		o.YCSB.Distribution == "" && slices.Contains(ops, "ycsb-d")
	if latest && o.Spec.Keys < 2 {
		return fmt.Errorf("the latest distribution needs {Keys} of at least 2, got %d", o.Spec.Keys)
	}
	return nil
}
