package sysinfo

import (
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// The reference is declared short: all its probes take about 50 ms on a
// quiet 2-core machine and must stay within 200 ms there; the bound here
// is a second, because the test machine may be shared (a load of 37 on 2
// cores made it 100–200 ms), which still catches a probe made ten times
// longer.
func TestReferenceIsShortAndComplete(t *testing.T) {
	start := time.Now()
	probes := TakeReference()
	took := time.Since(start)
	t.Logf("reference took %v: %+v", took, probes)
	if took > time.Second {
		t.Errorf("reference took %v, want ≤ 1s", took)
	}
	for _, name := range result.ProbeNames {
		i := -1
		for j, p := range probes {
			if p.Name == name {
				i = j
			}
		}
		if i < 0 {
			t.Errorf("probe %s missing", name)
			continue
		}
		if p := probes[i]; p.MedianNs <= 0 || p.N != refReps {
			t.Errorf("probe %s = %+v, want a positive median over %d repetitions", name, p, refReps)
		}
	}
}

// hogsAbove starts a busy loop per two CPUs' worth of runnable work, as
// other processes, at a higher priority than this one where allowed (root):
// on a machine that others already load, a hog at the same priority would
// move the reference by less than its spread.
func hogsAbove(t *testing.T) {
	t.Helper()
	n := 2 * runtime.NumCPU()
	hog(t, "dbmhog-ref", n, true)
	procs := readProcs()
	for pid, p := range procs {
		if p.comm == "dbmhog-ref" {
			syscall.Setpriority(syscall.PRIO_PROCESS, pid, -5) // best effort
		}
	}
	time.Sleep(100 * time.Millisecond)
}

// A CPU hog during one of two runs shows in the machine reference: the run
// made beside it drifted, and comparing the two says the machine, not what
// was measured, is slower.
func TestReferenceShowsAHog(t *testing.T) {
	quiet := Watch(time.Second)
	quiet.Reference("start")
	quiet.Reference("end")
	a := quiet.Stop()

	busy := Watch(time.Second)
	busy.Reference("start")
	t.Run("hog", func(t *testing.T) {
		hogsAbove(t)
		busy.Reference("end")
	})
	b := busy.Stop()

	ca, _, _ := a.Reference.Pooled(result.ProbeCPU)
	pa := b.Reference.Points
	t.Logf("cpu probe: quiet %v, busy start %v end %v", time.Duration(ca), time.Duration(pa[0].Probes[0].MedianNs), time.Duration(pa[1].Probes[0].MedianNs))
	if l := b.Reference.DriftLine(); !strings.Contains(l, "cpu probe") || !strings.Contains(l, "slower at the end") {
		t.Errorf("the run with a hog from its middle does not say the reference drifted: %q", l)
	}
	// One figure per test, slower in the busy run, as a hog makes them.
	lines := result.MachineExplains(&result.Document{Machine: a}, &result.Document{Machine: b}, []float64{0.7, 0.8, 0.75})
	if !slices.ContainsFunc(lines, func(l string) bool {
		return strings.Contains(l, "CPU reference") && strings.Contains(l, "slower in new") && strings.Contains(l, "3 of 3 figures slower")
	}) {
		t.Errorf("the comparison does not blame the machine: %q", lines)
	}
}
