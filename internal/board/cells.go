package board

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/study"
)

// RatioFloorNs is added to every machine's time per operation before it
// is divided by the best machine's, as ClickBench adds 10 ms to each
// query's time: below about 100 ns an operation's time is dbmeter's own
// cost of timing it (docs/kv.md, the runner's overhead), so a cell where
// every machine is that fast counts as a tie, not as a ratio of noise.
const RatioFloorNs = 100

// PenaltyFactor is what a missing cell counts as in the summary that
// counts every cell: this many times the worst ratio any machine had on
// that cell. The headline summary counts only the cells every machine
// has; a missing cell is never counted as fast.
const PenaltyFactor = 2

// bootstraps is how many resamples of the repetitions give a rank's
// interval.
const bootstraps = 1000

// Cell is one measured figure of the study across the machines.
type Cell struct {
	Table, Row, Col, Figure, Unit, Step string
	// Engine is the target the cell measured (for the engine filter).
	Engine string
	// Higher says a higher value is better (a rate).
	Higher bool
	// Dep is the reference the cell depends on; nil when none is declared.
	Dep *report.Dependence
	// Unnormalised says why the cell is not normalised, when it is not.
	Unnormalised string
	Kind         string
	Values       []Value // one per machine
}

// Value is one machine's figure of a cell.
type Value struct {
	// Missing says why the machine has no figure; the rest is then zero.
	Missing string
	V       float64
	// Lo and Hi bound V's 95 % interval (Student's t over the logarithms
	// of the repetitions); NaN with one repetition.
	Lo, Hi float64
	N      int
	// Rank is 1 for the best; RankLo and RankHi bound its 95 % interval,
	// bootstrapped from the repetitions.
	Rank, RankLo, RankHi int
	// Ratio is the time per operation over the best machine's, each with
	// RatioFloorNs added.
	Ratio float64
	// Norm is V divided by the machine's reference probe over the
	// machines' median probe (NaN when not normalised); NormRatio its
	// ratio to the best normalised value.
	Norm, NormLo, NormHi, NormRatio float64
	reps                            []float64
}

// present says the machine has a figure for the cell.
func (v Value) present() bool { return v.Missing == "" }

// cells collects every measured cell of the board's study on every
// machine, once each (tables that show the same figure of the same runs
// share it).
func cells(b *Board) []*Cell {
	var out []*Cell
	seen := map[string]bool{}
	for ti := range b.Study.Tables {
		t := &b.Study.Tables[ti]
		for i, row := range t.PublishedRows() {
			for j, col := range t.Header {
				key := strings.Join([]string{t.Step, fmt.Sprint(t.Multiply), t.Figure, t.Unit, fmt.Sprint(t.Where), row.Label, col}, "\x00")
				if seen[key] {
					continue
				}
				seen[key] = true
				if c := cellOf(b, ti, i, j); c != nil {
					out = append(out, c)
				}
			}
		}
	}
	for k, c := range out {
		rankCell(c, uint64(k))
		ratios(c)
	}
	return out
}

// cellOf is one cell on every machine; nil when no machine measured it.
func cellOf(b *Board, ti, i, j int) *Cell {
	t := &b.Study.Tables[ti]
	row := t.PublishedRows()[i].Label
	c := &Cell{Table: t.ID, Row: row, Col: t.Header[j], Figure: t.Figure, Unit: t.Unit, Step: t.Step, Higher: higher(t.Figure, t.Unit)}
	c.Engine = engine(t, row, t.Header[j])
	any := false
	for _, m := range b.Machines {
		cv := m.view.Tables[ti].Cells[i][j]
		v := Value{Lo: math.NaN(), Hi: math.NaN(), Norm: math.NaN(), NormLo: math.NaN(), NormHi: math.NaN(), NormRatio: math.NaN()}
		switch {
		case cv.Measured == nil:
			v.Missing = cv.Why
			if v.Missing == "" {
				v.Missing = "no run for this cell"
			}
		case cv.Measured.Standin:
			v.Missing = "measured against the protocol stand-in, not a server"
		case cv.Measured.Value <= 0 || math.IsInf(cv.Measured.Value, 0) || math.IsNaN(cv.Measured.Value):
			v.Missing = fmt.Sprintf("no figure (%s %g): the cell completed nothing", t.Figure, cv.Measured.Value)
		default:
			any = true
			v.V, v.N, v.reps = cv.Measured.Value, len(cv.Measured.Reps), cv.Measured.Reps
			v.Lo, v.Hi = interval(v.V, v.reps)
		}
		c.Values = append(c.Values, v)
	}
	if !any {
		return nil
	}
	normalise(b, t, c)
	return c
}

// engine is the target a cell measured, where a table's rows or columns
// are targets.
func engine(t *study.Table, row, col string) string {
	label := ""
	switch {
	case t.Columns == "target":
		label = col
	case t.Rows == "target":
		label = row
	default:
		return ""
	}
	if n, ok := t.Names[label]; ok && !strings.HasPrefix(n, "#") {
		return n
	}
	return label
}

// higher says whether a higher figure is better: rates are, times and
// spreads are not.
func higher(figure, unit string) bool {
	switch figure {
	case "throughput", "rows_s", "bytes_s":
		return true
	}
	return strings.HasSuffix(unit, "/s") || unit == "tps" || unit == "k tps"
}

// interval is the 95 % interval of a figure from its repetitions
// (Student's t over their logarithms, centred on the pooled figure).
func interval(v float64, reps []float64) (float64, float64) {
	logs := logsOf(reps)
	if len(logs) < 2 {
		return math.NaN(), math.NaN()
	}
	_, se := meanSD(logs)
	se /= math.Sqrt(float64(len(logs)))
	t := tQuantile(len(logs) - 1)
	return v * math.Exp(-t*se), v * math.Exp(t*se)
}

func logsOf(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if x > 0 {
			out = append(out, math.Log(x))
		}
	}
	return out
}

// meanSD is the mean and the sample standard deviation.
func meanSD(xs []float64) (float64, float64) {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	m := sum / float64(len(xs))
	if len(xs) < 2 {
		return m, math.NaN()
	}
	var sq float64
	for _, x := range xs {
		sq += (x - m) * (x - m)
	}
	return m, math.Sqrt(sq / float64(len(xs)-1))
}

// tQuantile is Student's t at 97.5 % for df degrees of freedom.
func tQuantile(df int) float64 {
	table := []float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228}
	switch {
	case df < 1:
		return math.NaN()
	case df < len(table):
		return table[df]
	case df < 30:
		return 2.1
	}
	return 1.96
}

// rankCell ranks the machines that have the cell, and bootstraps each
// rank's 95 % interval: every resample draws each machine's repetitions
// with replacement and ranks their geometric means. Two machines whose
// repetitions overlap trade places in the resamples, so their intervals
// share ranks. A machine with one repetition keeps its figure in every
// resample (its own spread is unknown).
func rankCell(c *Cell, seed uint64) {
	var idx []int
	for i, v := range c.Values {
		if v.present() {
			idx = append(idx, i)
		}
	}
	better := func(a, b float64) bool { return (c.Higher && a > b) || (!c.Higher && a < b) }
	for _, i := range idx {
		r := 1
		for _, k := range idx {
			if better(c.Values[k].V, c.Values[i].V) {
				r++
			}
		}
		c.Values[i].Rank = r
	}
	rng := rand.New(rand.NewPCG(1, seed))
	ranks := make([][]int, len(c.Values))
	stat := make([]float64, len(c.Values))
	for range bootstraps {
		for _, i := range idx {
			stat[i] = resample(rng, c.Values[i])
		}
		for _, i := range idx {
			r := 1
			for _, k := range idx {
				if better(stat[k], stat[i]) {
					r++
				}
			}
			ranks[i] = append(ranks[i], r)
		}
	}
	for _, i := range idx {
		sort.Ints(ranks[i])
		c.Values[i].RankLo = ranks[i][int(0.025*float64(len(ranks[i])))]
		c.Values[i].RankHi = ranks[i][int(math.Ceil(0.975*float64(len(ranks[i]))))-1]
	}
}

// resample is the geometric mean of one draw of v's repetitions with
// replacement; v's figure when it has fewer than two.
func resample(rng *rand.Rand, v Value) float64 {
	logs := logsOf(v.reps)
	if len(logs) < 2 {
		return v.V
	}
	var sum float64
	for range logs {
		sum += logs[rng.IntN(len(logs))]
	}
	return math.Exp(sum / float64(len(logs)))
}

// nsPerOp turns a figure into a time per operation in ns where its unit
// says how (a rate, a time); ok is false for other units, whose ratios
// get no floor.
func nsPerOp(v float64, unit string) (float64, bool) {
	perS := map[string]float64{"ops/s": 1, "k ops/s": 1e3, "tps": 1, "k tps": 1e3, "queries/s": 1, "rows/s": 1, "k rows/s": 1e3}
	ns := map[string]float64{"ns": 1, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
	if k, ok := perS[unit]; ok {
		return 1e9 / (v * k), true
	}
	if k, ok := ns[unit]; ok {
		return v * k, true
	}
	return v, false
}

// ratios sets each machine's ratio to the best, raw and normalised.
func ratios(c *Cell) {
	set := func(get func(Value) float64, put func(*Value, float64)) {
		cost := func(x float64) float64 {
			if t, ok := nsPerOp(x, c.Unit); ok {
				return t + RatioFloorNs
			}
			if c.Higher {
				return 1 / x
			}
			return x
		}
		best := math.Inf(1)
		for _, v := range c.Values {
			if x := get(v); v.present() && !math.IsNaN(x) {
				best = math.Min(best, cost(x))
			}
		}
		for i := range c.Values {
			if x := get(c.Values[i]); c.Values[i].present() && !math.IsNaN(x) {
				put(&c.Values[i], cost(x)/best)
			}
		}
	}
	set(func(v Value) float64 { return v.V }, func(v *Value, r float64) { v.Ratio = r })
	set(func(v Value) float64 { return v.Norm }, func(v *Value, r float64) { v.NormRatio = r })
}

// normalise divides each machine's figure by its reference probe (the
// step's own), over the machines' median probe, so that a machine whose
// probe is twice as slow has its rate doubled and its time halved.
func normalise(b *Board, t *study.Table, c *Cell) {
	step := t.StepIDs()[0]
	probes := make([]float64, len(b.Machines))
	var have []float64
	profile := ""
	for k, m := range b.Machines {
		probes[k] = math.NaN()
		r := stepResult(m, step)
		if r == nil || len(r.Runs) == 0 {
			continue
		}
		if st := r.Env.Disk.Storage; st != nil && profile == "" {
			profile = " under the " + st.Profile + " profile"
		}
		if c.Dep == nil {
			if d, ok := dependence(r, &r.Runs[0], t.Figure); ok {
				c.Dep = &d
			}
		}
		if c.Dep != nil {
			if p, ok := probeFor(m, r, c.Dep.Probe); ok {
				probes[k] = p
				have = append(have, p)
			}
		}
	}
	label := t.Figure + " (" + t.Unit + ")" + profile
	if c.Dep == nil {
		c.Kind = "not normalised · " + label
		c.Unnormalised = "no reference is declared for it"
		if profile != "" {
			c.Unnormalised = "under a storage profile, whose limits set what a sync costs, alike on every machine: the disk probe, run inside the profile's cgroup, measures the profile, not the machine"
		}
		return
	}
	c.Kind = boundNames[c.Dep.Probe] + " · " + label
	base := median(have)
	for k := range c.Values {
		v := &c.Values[k]
		if !v.present() || math.IsNaN(probes[k]) {
			continue
		}
		f := probes[k] / base
		if !c.Higher {
			f = 1 / f
		}
		v.Norm, v.NormLo, v.NormHi = v.V*f, v.Lo*f, v.Hi*f
	}
}

// probeFor is what machine m's cell of step result r is divided by: the
// step's own probe (the CPU loop and RTT taken at its start, between its
// rounds and at its end), but for the fsync cost, which a step samples
// once, for a fraction of a second, of a disk whose stalls come and go
// (docs/board's plain machine: 132 µs to 1.18 ms a durable write over its
// steps): the machine's median over its steps without a storage profile.
func probeFor(m *Machine, r *result.Document, probe string) (float64, bool) {
	if probe == ProbeFsync {
		v, ok := m.Ref[ProbeFsync]
		return v, ok
	}
	return report.ProbeOf(r, probe)
}

func stepResult(m *Machine, id string) *result.Document {
	for _, st := range m.doc.Steps {
		if st.ID == id {
			return st.Result
		}
	}
	return nil
}
