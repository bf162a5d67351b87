package result

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// ProbeCPU is the reference's CPU-bound loop, the probe a difference in
// compute is judged by; ProbeNames lists every probe in the order they are
// shown.
const ProbeCPU = "cpu"

// ProbeNames are the reference's probes, as sysinfo takes them.
var ProbeNames = []string{ProbeCPU, "memcopy", "loopback", "timer"}

// MachineExplains says, one line each, how much of the difference between
// two documents (a the base, b the new) the machines they were made on
// explain: whether either was made on a busy machine, and how the machine
// reference moved against the figures. speedups are the matched figures'
// ratios of b to a, oriented so that above 1 is b better (throughput b/a,
// or latency a/b), as the caller matched them; it may be empty. No line
// comes back when neither document carries the machine's state.
func MachineExplains(a, b *Document, speedups []float64) []string {
	var out []string
	if l := busyCause(a.Machine, b.Machine); l != "" {
		out = append(out, l)
	}
	if l := referenceCause(a.Machine, b.Machine, speedups); l != "" {
		out = append(out, l)
	}
	return out
}

func busyCause(a, b *Machine) string {
	busyA, busyB := a != nil && a.Busy, b != nil && b.Busy
	switch {
	case busyA && busyB:
		return fmt.Sprintf("both were made on a busy machine (other processes used %.2f and %.2f of a core): a probable cause of noise in both", a.OthersCores, b.OthersCores)
	case busyB:
		return fmt.Sprintf("new was made on a busy machine (other processes used %.2f of a core, against %s in base): a probable cause of any slowdown in new", b.OthersCores, othersOf(a))
	case busyA:
		return fmt.Sprintf("base was made on a busy machine (other processes used %.2f of a core, against %s in new): a probable cause of any speed-up in new", a.OthersCores, othersOf(b))
	}
	return ""
}

func othersOf(m *Machine) string {
	if m == nil {
		return "an unrecorded load"
	}
	return fmt.Sprintf("%.2f", m.OthersCores)
}

// referenceCause compares the two references' CPU probes and, when they
// differ past their spread, says whether the figures moved with them.
func referenceCause(a, b *Machine, speedups []float64) string {
	if a == nil || b == nil {
		return ""
	}
	ma, sa, okA := a.Reference.Pooled(ProbeCPU)
	mb, sb, okB := b.Reference.Pooled(ProbeCPU)
	if !okA || !okB {
		return ""
	}
	ref := ma / mb // above 1: new's machine is faster
	noise := max(minDrift, sa, sb)
	refLine := "CPU reference " + faster(ref) + " in new" + otherProbes(a.Reference, b.Reference)
	if math.Abs(math.Log(ref)) <= math.Log1p(noise) {
		return fmt.Sprintf("machine reference: the same within its spread (%s); the machine does not explain the differences", refLine)
	}
	if len(speedups) == 0 {
		return refLine + ": differences between the runs may come from the machine"
	}
	n, with := len(speedups), 0
	for _, s := range speedups {
		if (s > 1) == (ref > 1) {
			with++
		}
	}
	med := median(speedups)
	dir := "faster"
	if ref < 1 {
		dir = "slower"
	}
	cells := fmt.Sprintf("%d of %d figures %s, median %+.0f%%", with, n, dir, 100*(med-1))
	switch {
	case 2*with <= n:
		return fmt.Sprintf("%s; %s: not the machine", refLine, cells)
	case math.Abs(math.Log(med)) <= 1.5*math.Abs(math.Log(ref)):
		return fmt.Sprintf("%s; %s: the machine, not the targets", refLine, cells)
	default:
		share := 100 * math.Log(ref) / math.Log(med)
		return fmt.Sprintf("%s; %s: the machine explains about %.0f%% of it", refLine, cells, share)
	}
}

// faster says a ratio of times (base over new) as "1.19× faster".
func faster(r float64) string {
	if r >= 1 {
		return fmt.Sprintf("%.2f× faster", r)
	}
	return fmt.Sprintf("%.2f× slower", 1/r)
}

// otherProbes lists the non-CPU probes' ratios, " (memcopy 1.10× faster,
// …)", for the reader who suspects memory or the network instead.
func otherProbes(a, b *Reference) string {
	var parts []string
	for _, name := range ProbeNames[1:] {
		ma, _, okA := a.Pooled(name)
		mb, _, okB := b.Pooled(name)
		if okA && okB {
			parts = append(parts, name+" "+faster(ma/mb))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
