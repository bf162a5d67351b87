package kv

import (
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Run is one kv benchmark in the shape MatrixOptions.Shape asks for: the
// matrix of cells or seed 004's harness, each run the same way.
type Run struct {
	m *Matrix
	h *Harness
}

// New checks o and returns the run it asks for; its errors are the user's
// (usage errors). kv runs engines inside this process, so it cannot be
// sharded across machines.
func New(o MatrixOptions) (*Run, error) {
	if o.Sharded {
		return nil, usage.Errorf("kv runs embedded engines on this machine only: drop {Shard} and {StartAt}")
	}
	switch o.Shape {
	case ShapeCells:
		m, err := NewMatrix(o)
		return &Run{m: m}, err
	case ShapeHarness:
		h, err := NewHarness(o.harnessDefaults())
		return &Run{h: h}, err
	}
	return nil, usage.Errorf("{Shape} must be %s or %s, got %q", ShapeCells, ShapeHarness, o.Shape)
}

// harnessDefaults: the harness shape runs all its phases unless {Ops}
// names them, and once unless {Repeat} says otherwise (the harness ran
// each engine once), with no warm-up; the runs record what ran.
func (o MatrixOptions) harnessDefaults() MatrixOptions {
	given := func(field string) bool { return o.Given != nil && o.Given(field) }
	if !given("Ops") {
		o.Ops = nil
	}
	if !given("Repeat") {
		o.Repeat = 1
		o.record("repeat", "1")
	}
	if !given("Warmup") {
		o.Load.Warmup = 0
		o.record("warmup", "0s")
	}
	return o
}

// record sets a recorded setting to what runs, when settings are
// recorded.
func (o MatrixOptions) record(name, value string) {
	if o.Flags != nil {
		o.Flags[name] = value
	}
}

// SetIO counts a storage profile's IO per cell or phase.
func (r *Run) SetIO(io IOCounter) {
	if r.m != nil {
		r.m.IO = io
	} else {
		r.h.IO = io
	}
}

// Plan is the run's plan, its engines' files under dir (an existing
// directory, as PrepareDir makes it).
func (r *Run) Plan(dir string) plan.Plan {
	if r.m != nil {
		r.m.Dir = dir
		return r.m.Plan()
	}
	r.h.Dir = dir
	return r.h.Plan()
}
