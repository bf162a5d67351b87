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
		h, err := NewHarness(o)
		return &Run{h: h}, err
	}
	return nil, usage.Errorf("{Shape} must be %s or %s, got %q", ShapeCells, ShapeHarness, o.Shape)
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
