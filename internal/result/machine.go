package result

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// BusyOthersCores is the average CPU, in cores, that processes other than
// dbmeter, its workers and the target server may use over a run before
// the run is marked as made on a busy machine. A quarter of a core is
// more than an idle desktop or a shell uses, and less than any one
// process that computes in a loop.
const BusyOthersCores = 0.25

// BusyStealPct is the share of the machine's CPU time, in percent, that
// the hypervisor may steal over a run before the run is marked busy.
const BusyStealPct = 5.0

// Machine is how busy the machine was while dbmeter ran: its load, the
// CPU its hypervisor stole, and the CPU that other processes used, over
// the whole invocation and per interval, and the machine reference taken
// at the start and end.
type Machine struct {
	// Seconds is how long the machine was watched.
	Seconds float64 `json:"seconds"`
	// Start and End are the load averages when dbmeter began and ended.
	Start LoadAvg `json:"start"`
	End   LoadAvg `json:"end"`
	// Over the whole invocation, in cores (1.0 is one core busy all the
	// time): dbmeter with its worker processes (Own), the target server
	// where its processes are known (Target), and every other process
	// (Others): /proc/stat's busy time less the first two.
	OwnCores    float64 `json:"own_cores"`
	TargetCores float64 `json:"target_cores,omitempty"`
	OthersCores float64 `json:"others_cores"`
	// MaxOthersCores is the busiest interval's Others.
	MaxOthersCores float64 `json:"max_others_cores"`
	// StealPct is the share of all CPU time the hypervisor stole.
	StealPct float64 `json:"steal_pct"`
	// TopOthers are the other processes that used the most CPU, by name.
	TopOthers []ProcessCPU `json:"top_others,omitempty"`
	// Intervals are the same figures per interval, in order.
	Intervals []MachineInterval `json:"intervals,omitempty"`
	// Busy is set when Others or StealPct passed BusyOthersCores or
	// BusyStealPct.
	Busy bool `json:"busy"`
	// Reference is the machine reference: fixed micro-measurements taken
	// at the start, between rounds and at the end.
	Reference *Reference `json:"reference,omitempty"`
}

// LoadAvg is /proc/loadavg's three figures.
type LoadAvg struct {
	Load1  float64 `json:"load1"`
	Load5  float64 `json:"load5"`
	Load15 float64 `json:"load15"`
}

// ProcessCPU is the CPU that the processes of one name used.
type ProcessCPU struct {
	Name      string  `json:"name"`
	Processes int     `json:"processes"`
	Cores     float64 `json:"cores"`
}

// MachineInterval is one interval's machine state; TS is its end, in
// seconds since the watch began.
type MachineInterval struct {
	TS          float64 `json:"ts"`
	Load1       float64 `json:"load1"`
	OwnCores    float64 `json:"own_cores"`
	TargetCores float64 `json:"target_cores,omitempty"`
	OthersCores float64 `json:"others_cores"`
	StealPct    float64 `json:"steal_pct"`
}

// JudgeBusy sets Busy from the averages.
func (m *Machine) JudgeBusy() {
	m.Busy = m.OthersCores >= BusyOthersCores || m.StealPct >= BusyStealPct
}

// BusyLine is the one line a table prints about a busy machine; "" when
// it was quiet or not watched.
func (m *Machine) BusyLine() string {
	if m == nil || !m.Busy {
		return ""
	}
	var why []string
	if m.OthersCores >= BusyOthersCores {
		s := fmt.Sprintf("other processes used %.2f of a core on average (busiest interval %.2f)", m.OthersCores, m.MaxOthersCores)
		if len(m.TopOthers) > 0 {
			s += ", most " + m.TopOthers[0].Name + fmt.Sprintf(" %.2f", m.TopOthers[0].Cores)
		}
		why = append(why, s)
	}
	if m.StealPct >= BusyStealPct {
		why = append(why, fmt.Sprintf("the hypervisor stole %.0f%% of the CPU", m.StealPct))
	}
	return fmt.Sprintf("BUSY MACHINE: %s; load average %.1f at the start, %.1f at the end: these figures are lower and noisier than a quiet machine gives",
		strings.Join(why, "; "), m.Start.Load1, m.End.Load1)
}

// Reference is a few short, fixed micro-measurements of the machine, taken
// at moments of a run (start, between rounds, end), so that two runs, or
// two moments of one, can be compared as machines. Each probe's time is
// for a fixed amount of work: lower is faster.
type Reference struct {
	// Method says what each probe does, by probe name.
	Method map[string]string `json:"method"`
	Points []ReferencePoint  `json:"points"`
}

// ReferencePoint is one taking of the reference.
type ReferencePoint struct {
	// At names the moment: "start", "round 2", "end".
	At string `json:"at"`
	// TS is seconds since the watch began.
	TS     float64 `json:"ts"`
	Probes []Probe `json:"probes"`
}

// Probe is one micro-measurement's repetitions summed up.
type Probe struct {
	Name string `json:"name"`
	// MedianNs is the median time of one repetition.
	MedianNs float64 `json:"median_ns"`
	// Spread is the probe's own noise: the range of its middle
	// repetitions (second-fastest to second-slowest) over the median.
	Spread float64 `json:"spread"`
	N      int     `json:"n"`
}

// minDrift is the smallest change of a probe that is called a drift,
// whatever its spread: a few percent is what two quiet takings differ by.
const minDrift = 0.05

// probe returns the named probe of p.
func (p ReferencePoint) probe(name string) (Probe, bool) {
	i := slices.IndexFunc(p.Probes, func(q Probe) bool { return q.Name == name })
	if i < 0 {
		return Probe{}, false
	}
	return p.Probes[i], true
}

// DriftLine is the one line a table prints when a probe of the reference
// moved past its own spread during the run (the most moved one is
// named); "" when it held.
func (r *Reference) DriftLine() string {
	if r == nil || len(r.Points) < 2 {
		return ""
	}
	first := r.Points[0]
	var worst string
	worstBy := 0.0
	for _, p := range r.Points[1:] {
		for _, q := range p.Probes {
			b, ok := first.probe(q.Name)
			if !ok || b.MedianNs <= 0 || q.MedianNs <= 0 {
				continue
			}
			ratio := q.MedianNs / b.MedianNs
			by := math.Abs(math.Log(ratio))
			if by <= math.Log1p(max(minDrift, b.Spread, q.Spread)) || by <= worstBy {
				continue
			}
			worstBy = by
			worst = fmt.Sprintf("%s probe %s at %s than at %s (its spread %.0f%%)", q.Name, times(ratio), moment(p.At), moment(first.At), 100*max(b.Spread, q.Spread))
		}
	}
	if worst == "" {
		return ""
	}
	return "MACHINE DRIFTED: the machine reference moved past its own spread during the run: " + worst
}

// moment names a reference point in a sentence: "the start", "round 2".
func moment(at string) string {
	if at == "start" || at == "end" {
		return "the " + at
	}
	return at
}

// times says a time ratio as "1.31× slower" or "1.19× faster".
func times(ratio float64) string {
	if ratio >= 1 {
		return fmt.Sprintf("%.2f× slower", ratio)
	}
	return fmt.Sprintf("%.2f× faster", 1/ratio)
}

// Pooled is the median of a probe's medians over every point of r, and
// the largest spread among them.
func (r *Reference) Pooled(name string) (median, spread float64, ok bool) {
	if r == nil {
		return 0, 0, false
	}
	var ms []float64
	for _, p := range r.Points {
		if q, found := p.probe(name); found && q.MedianNs > 0 {
			ms = append(ms, q.MedianNs)
			spread = max(spread, q.Spread)
		}
	}
	if len(ms) == 0 {
		return 0, 0, false
	}
	slices.Sort(ms)
	if len(ms)%2 == 1 {
		return ms[len(ms)/2], spread, true
	}
	return (ms[len(ms)/2-1] + ms[len(ms)/2]) / 2, spread, true
}
