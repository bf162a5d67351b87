package study

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A throughput table and its time table (per_worker_ns, the throughput
// inverted) over the same step, and a table of a second step.
const kindsStudy = `id: k
title: kinds
source: here
steps:
  - id: a
    run: null --duration 1s
  - id: b
    run: null --duration 1s
tables:
  - id: tp
    title: throughput
    step: a
    rows: workload
    columns: target
    figure: throughput
    unit: ops/s
    header: [x]
    published:
      noop: [100]
  - id: time
    title: time per operation
    step: a
    rows: workload
    columns: target
    figure: per_worker_ns
    unit: ns
    header: [x]
    published:
      noop: [10000000]
  - id: other
    title: the second step
    step: b
    rows: workload
    columns: target
    figure: throughput
    unit: ops/s
    header: [x]
    published:
      noop: [100]
`

// kindsDoc is a document of steps a and b, each one worker of target x
// at these throughputs (three repetitions).
func kindsDoc(a, b []float64) *Document {
	step := func(id string, xs []float64) StepRun {
		var runs []result.Run
		for i, x := range xs {
			runs = append(runs, result.Run{Family: "null", Target: "x", Workload: "noop", Repeat: i + 1, Workers: 1,
				Stats: result.Stats{DurationS: 1, Ops: int64(x), OpsPerS: x}})
		}
		return StepRun{ID: id, Result: &result.Document{Runs: runs}}
	}
	return &Document{Schema: Schema, Steps: []StepRun{step("a", a), step("b", b)}}
}

// TestCompareKindsNotPooled: B has 1.5 times A's throughput, so each time
// per operation is 1/1.5 of A's. Pooled, the two cells' geometric mean
// would be 1, as if nothing changed; per kind it is 1.5 for the
// throughput and 0.667 for the time, and both cells are faster in B.
func TestCompareKindsNotPooled(t *testing.T) {
	t.Parallel()
	s, err := Parse("k.yaml", []byte(kindsStudy))
	if err != nil {
		t.Fatal(err)
	}
	a := kindsDoc([]float64{100, 102, 98}, []float64{100, 100, 100})
	b := kindsDoc([]float64{150, 153, 147}, []float64{100, 100, 100})
	b.Steps[1].Interrupted = true
	c := Compare(s, a, b)
	want := map[string]float64{"throughput": 1.5, "time": 1 / 1.5}
	if len(c.Kinds) != len(want) {
		t.Fatalf("kinds %+v, want throughput and time only (step b was interrupted)", c.Kinds)
	}
	for _, k := range c.Kinds {
		if w, ok := want[k.Kind]; !ok || math.Abs(k.GeoMean-w) > 0.01 || k.Cells != 1 || k.Faster != 1 {
			t.Errorf("kind %s: geometric mean %.3f over %d cells, %d faster; want %.3f over 1, 1 faster", k.Kind, k.GeoMean, k.Cells, k.Faster, w)
		}
	}
	if c.Faster != 2 || c.Compared != 2 {
		t.Errorf("%d of %d cells faster, want 2 of 2", c.Faster, c.Compared)
	}
	if len(c.LeftOut) != 1 || c.LeftOut[0] != "step b: interrupted in B" {
		t.Errorf("left out %q, want step b, interrupted in B", c.LeftOut)
	}
	var out bytes.Buffer
	WriteComparison(&out, c)
	for _, line := range []string{
		"left out: step b: interrupted in B (its cells are not compared)",
		"  throughput 1.500 over 1 cell (higher is better;",
		"  time       0.667 over 1 cell (lower is better;",
		"2 of 2 cells faster in B",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("the comparison lacks %q:\n%s", line, out.String())
		}
	}
	if strings.Contains(out.String(), "geometric mean of B/A over") {
		t.Errorf("the comparison still prints a pooled geometric mean:\n%s", out.String())
	}
}

// TestCompareFailedStepLeftOut: a step that failed on one side is left
// out of the comparison and named, with the side.
func TestCompareFailedStepLeftOut(t *testing.T) {
	t.Parallel()
	s, err := Parse("k.yaml", []byte(kindsStudy))
	if err != nil {
		t.Fatal(err)
	}
	a := kindsDoc([]float64{100, 102, 98}, []float64{100, 100, 100})
	b := kindsDoc([]float64{100, 102, 98}, []float64{200, 200, 200})
	a.Steps[0].Error = "exit status 1"
	c := Compare(s, a, b)
	if len(c.Cells) != 1 || c.Cells[0].Table != "other" {
		t.Errorf("cells %+v, want only table other's", c.Cells)
	}
	if len(c.LeftOut) != 1 || c.LeftOut[0] != "step a: failed in A" {
		t.Errorf("left out %q, want step a, failed in A", c.LeftOut)
	}
}

// TestCompareSameRunMovesNothing: a run compared with itself has every
// ratio 1, no cell faster or slower, and is not said to have moved one way.
func TestCompareSameRunMovesNothing(t *testing.T) {
	t.Parallel()
	s, err := Parse("k.yaml", []byte(kindsStudy))
	if err != nil {
		t.Fatal(err)
	}
	a := kindsDoc([]float64{100, 102, 98}, []float64{100, 101, 99})
	c := Compare(s, a, a)
	var out bytes.Buffer
	WriteComparison(&out, c)
	if c.Faster != 0 || c.Slower != 0 || c.Compared != 3 || strings.Contains(out.String(), "almost every cell moved") {
		t.Errorf("%d faster, %d slower of %d; want none of 3 and no 'moved the same way':\n%s", c.Faster, c.Slower, c.Compared, out.String())
	}
}
