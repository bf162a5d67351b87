package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/dbmeter/dbmeter/internal/result"
)

// This file is the figures layer that reports and studies share: one
// catalogue of the figures a table cell can show (name, base unit,
// direction), one way to fold a cell's repetitions into its figure
// (pooledRun, as the family tables do) and one interval statistic (the
// tables' ±: Student's t over the repetitions, benchmath.AssumeNormal),
// so a study's cell and a report's cell of the same runs are the same
// number with the same interval.

// Figure is one figure of a run a cell can show.
type Figure struct {
	Name string
	// Base is dbmeter's unit for it: "ns", "/s", "B/s" or "%"; "" for a
	// count or an extra figure, shown as recorded.
	Base string
	// Higher says a higher value is better (a rate); lower is better
	// for times.
	Higher bool
	// get reads the figure of one run (a repetition, or the pooled run).
	get func(r *result.Run) float64
	// rate marks a per-second figure: its interval is the throughput's
	// (relSpread), the ± the family tables print.
	rate bool
	// perRep marks a figure of each repetition's own shape (the spread of
	// its progress intervals) that pooling cannot fold: the cell's figure
	// is the mean of its repetitions'.
	perRep bool
	// quantile is a latency percentile's (50, 99, …): with one
	// repetition, its interval is the distribution-free one of a
	// quantile, read off the repetition's histogram at the ranks
	// n·q ± 1.96·√(n·q·(1−q)).
	quantile float64
	// mean marks a mean latency: with one repetition, its interval is
	// the mean's over the repetition's operations (their standard
	// deviation over √n), one moment of the machine, as a rate's is
	// its progress intervals'.
	mean bool
	// fromThroughput derives the figure from the cell's pooled throughput
	// (a monotone function of it and the workers), so a derived cell and
	// the throughput beside it are one figure, their intervals one.
	fromThroughput func(opsPerS float64, workers int) float64
	// total marks a count that pooling adds up (errors): it has no
	// interval, since a repetition's count is a share of it.
	total bool
	// perOp marks dbmeter's own cost per operation (CPU, allocations),
	// which pooledRun keeps from the first repetition: the cell's figure
	// is the repetitions' mean weighted by their operations.
	perOp bool
	// label heads the figure in compare ("ops/s"); "" for a figure
	// compare does not show. compare lists them in the catalogue's order.
	label string
	// format prints a value in the base unit, for compare.
	format func(float64) string
	// show says whether compare shows the figure for these runs (a rate
	// of rows only where rows moved); nil: always.
	show func(rs []*result.Run) bool
}

// Estimate is one cell's figure: its repetitions pooled, the 95 %
// interval around it and what it rests on.
type Estimate struct {
	Value float64
	// Lo and Hi bound the 95 % interval; NaN when there is none (one
	// repetition without progress intervals, or a figure of 0).
	Lo, Hi float64
	// N is the repetitions pooled.
	N int
	// Reps are each repetition's own value.
	Reps []float64
	// Few marks a figure from too few operations (the tables' †).
	Few bool
}

// HasInterval says whether the estimate has a 95 % interval.
func (e Estimate) HasInterval() bool { return !math.IsNaN(e.Lo) && !math.IsNaN(e.Hi) }

// Spread is the interval's half-width as a share of the value (the
// tables' ±); NaN without an interval.
func (e Estimate) Spread() float64 {
	if !e.HasInterval() || e.Value == 0 {
		return math.NaN()
	}
	return (e.Hi - e.Lo) / 2 / math.Abs(e.Value)
}

// Flagged says the spread is past the tables' * mark.
func (e Estimate) Flagged() bool { return e.Spread() > spreadFlag }

// Scale multiplies the estimate by k > 0 (a unit, or a table's factor).
func (e Estimate) Scale(k float64) Estimate {
	out := e
	out.Value, out.Lo, out.Hi = e.Value*k, e.Lo*k, e.Hi*k
	out.Reps = make([]float64, len(e.Reps))
	for i, x := range e.Reps {
		out.Reps[i] = x * k
	}
	return out
}

func nsOf(f func(result.Latency) int64) func(*result.Run) float64 {
	return func(r *result.Run) float64 { return float64(f(r.Latency)) }
}

// figureCatalogue lists the figures by name, as study files name them,
// in the order compare shows them.
var figureCatalogue = []Figure{
	{Name: "throughput", Base: "/s", Higher: true, rate: true, get: func(r *result.Run) float64 { return r.OpsPerS }, label: "ops/s", format: Count},
	{Name: "rows_s", Base: "/s", Higher: true, rate: true, get: func(r *result.Run) float64 { return r.RowsPerS }, label: "rows/s", format: Count,
		show: func(rs []*result.Run) bool { return anyRun(rs, func(r *result.Run) bool { return r.RowsPerS > 0 }) }},
	{Name: "bytes_s", Base: "B/s", Higher: true, rate: true, get: func(r *result.Run) float64 { return r.BytesPerS }},
	{Name: "p50", Base: "ns", quantile: 50, get: nsOf(func(l result.Latency) int64 { return l.P50 }), label: "p50", format: nanos},
	{Name: "p90", Base: "ns", quantile: 90, get: nsOf(func(l result.Latency) int64 { return l.P90 }), label: "p90", format: nanos},
	{Name: "p99", Base: "ns", quantile: 99, get: nsOf(func(l result.Latency) int64 { return l.P99 }), label: "p99", format: nanos},
	{Name: "p999", Base: "ns", quantile: 99.9, get: nsOf(func(l result.Latency) int64 { return l.P999 }), label: "p99.9", format: nanos},
	{Name: "max", Base: "ns", get: nsOf(func(l result.Latency) int64 { return l.Max }), label: "max", format: nanos},
	{Name: "mean", Base: "ns", mean: true, get: func(r *result.Run) float64 { return r.Latency.Mean }, label: "mean", format: nanos},
	// errors are the operations that failed, added up over the
	// repetitions; compare shows them only where there are some.
	{Name: "errors", total: true, get: func(r *result.Run) float64 { return float64(r.Errors) }, label: "errors", format: Count,
		show: func(rs []*result.Run) bool { return anyRun(rs, func(r *result.Run) bool { return r.Errors > 0 }) }},
	// cpu_ns_op and allocs_op are dbmeter's own CPU time and heap
	// allocations per operation, the client cost seed 000 compares.
	{Name: "cpu_ns_op", Base: "ns", perOp: true, get: func(r *result.Run) float64 { return r.Client.CPUNsPerOp }, label: "CPU/op", format: nanos},
	{Name: "allocs_op", perOp: true, get: func(r *result.Run) float64 { return r.Client.AllocsPerOp }, label: "allocs/op",
		format: func(v float64) string { return fmt.Sprintf("%.2f", v) }},
	// interval_cv is the spread of a run's progress intervals' operation
	// counts (standard deviation over mean, %): how steady it was.
	{Name: "interval_cv", Base: "%", perRep: true, get: intervalCV},
	// per_worker_ns is 1e9 / (throughput × workers): seed 004's "time"
	// column, which its numbers show is derived from the throughput, not
	// a latency (docs/studies.md). It is derived from the cell's pooled
	// throughput, so the two tables agree.
	{Name: "per_worker_ns", Base: "ns", fromThroughput: func(ops float64, workers int) float64 {
		if ops <= 0 || workers == 0 {
			return math.NaN()
		}
		return 1e9 / (ops * float64(workers))
	}},
	// latency_cv is the spread of the operations' latencies (standard
	// deviation over mean, %): how steady each operation's time was.
	{Name: "latency_cv", Base: "%", get: func(r *result.Run) float64 {
		if r.Latency.Mean == 0 {
			return math.NaN()
		}
		return 100 * r.Latency.Stddev / r.Latency.Mean
	}},
}

// Probes of the machine reference a figure can scale with
// (docs/machine.md): the CPU loop, the fsync cost of the disk probe and
// the loopback round trip.
const (
	ProbeCPU      = result.ProbeCPU
	ProbeFsync    = "fsync"
	ProbeLoopback = "loopback"
)

// Dependence declares which probe of the machine reference a figure
// scales with, for the runs of a family whose setting has a value (an
// empty Figure or Setting: any). It is declared here, beside the
// figures, so that whatever normalises a figure by the machine (the
// study board) reads it and never guesses from the numbers.
type Dependence struct {
	Family, Figure, Setting, Value string
	Probe                          string
	Why                            string
}

// dependences are the declarations, the first that applies winning.
var dependences = []Dependence{
	{Family: "kv", Setting: "fsync", Value: "false", Probe: ProbeCPU,
		Why: "an engine that does not sync computes in dbmeter's own process: its figures scale with the CPU. Not with the core count: on this project's VM 40 workers on one core ran the nofsync cells as fast as on two (the engines' locks, not the cores, bound them)"},
	{Family: "kv", Setting: "fsync", Value: "true", Probe: ProbeFsync,
		Why: "every write waits for a durable write: its figures scale with what one fsync costs"},
	{Family: "null", Probe: ProbeCPU, Why: "the null target does no I/O: dbmeter's own CPU bounds it"},
	{Family: "pg", Probe: ProbeLoopback, Why: "every transaction is round trips to the server"},
	{Family: "ch", Probe: ProbeLoopback, Why: "every query or batch is a round trip to the server"},
}

// Dependences lists the declarations, for a page to show.
func Dependences() []Dependence { return slices.Clone(dependences) }

// DependenceOf is the declaration that applies to figure of a run of
// family with params (its settings); false when none does.
func DependenceOf(family string, params map[string]string, figure string) (Dependence, bool) {
	for _, d := range dependences {
		if d.Family != family || (d.Figure != "" && d.Figure != figure) {
			continue
		}
		if d.Setting != "" && params[d.Setting] != d.Value {
			continue
		}
		return d, true
	}
	return Dependence{}, false
}

// ProbeOf reads a probe of the machine reference from one result
// document, as a Dependence divides by it: the CPU loop, loopback RTT,
// memory copy and timer pooled over the reference's points; the fsync
// cost as the disk probe's time per durable write with its waits in it
// (its mean, from its rate), not its p50. A block IO throttle passes an
// allowance of IOs at the device's speed at the start of each of its
// slices and holds the next to the slice's end, so most of the probe's
// fsyncs are the allowance's and its p50 is the device's: on this
// project's VM a cgroup v1 throttle at 150 write IOs/s left the p50 at
// 167 µs (plain: 172 µs) while the probe did 73 fsyncs/s (plain: 848),
// and the engines' synced writes ran at 0.38× plain's speed
// (docs/board). False when the document lacks the probe.
func ProbeOf(d *result.Document, probe string) (float64, bool) {
	if probe == ProbeFsync {
		f := d.Env.Disk.Fsync
		if f == nil || f.Error != "" || f.OpsPerS <= 0 {
			return 0, false
		}
		return float64(fsyncMean(f)), true
	}
	if d.Machine == nil {
		return 0, false
	}
	m, _, ok := d.Machine.Reference.Pooled(probe)
	return m, ok
}

// LookupFigure finds a figure by name: one of the catalogue,
// phase.NAME.STAT (STAT p50, p90, p99 or mean: the latency of a part of
// each operation a family times apart) or extra.NAME (a family's own
// figure, as recorded).
func LookupFigure(name string) (Figure, bool) {
	for _, f := range figureCatalogue {
		if f.Name == name {
			return f, true
		}
	}
	if rest, ok := strings.CutPrefix(name, "extra."); ok && rest != "" {
		return Figure{Name: name, get: func(r *result.Run) float64 {
			if x, ok := r.Extra[rest]; ok {
				return x
			}
			return math.NaN()
		}}, true
	}
	rest, ok := strings.CutPrefix(name, "phase.")
	i := strings.LastIndex(rest, ".")
	if !ok || i <= 0 {
		return Figure{}, false
	}
	phase, stat := rest[:i], rest[i+1:]
	pick := map[string]func(l result.Latency) float64{
		"p50": func(l result.Latency) float64 { return float64(l.P50) }, "p90": func(l result.Latency) float64 { return float64(l.P90) },
		"p99": func(l result.Latency) float64 { return float64(l.P99) }, "mean": func(l result.Latency) float64 { return l.Mean },
	}[stat]
	if pick == nil {
		return Figure{}, false
	}
	return Figure{Name: name, Base: "ns", get: func(r *result.Run) float64 {
		p, ok := r.Phases[phase]
		if !ok || p.Count == 0 {
			return math.NaN()
		}
		return pick(p.Latency)
	}}, true
}

// FigureNames lists the figures a table may show, for messages.
func FigureNames() []string {
	names := make([]string, 0, len(figureCatalogue)+2)
	for _, f := range figureCatalogue {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return append(names, "phase.NAME.p50|p90|p99|mean", "extra.NAME")
}

// figureUnits convert a figure from its base unit into a table's unit.
var figureUnits = map[string]map[string]float64{
	"ns":  {"ns": 1, "µs": 1e-3, "us": 1e-3, "ms": 1e-6, "s": 1e-9},
	"/s":  {"ops/s": 1, "k ops/s": 1e-3, "rows/s": 1, "k rows/s": 1e-3, "tps": 1, "k tps": 1e-3, "queries/s": 1},
	"B/s": {"B/s": 1, "MB/s": 1e-6},
	"%":   {"%": 1},
}

// Factor is what turns the figure in its base unit into unit; false when
// the figure is not measured in that kind of unit. An extra figure is
// shown as recorded, in whatever unit the table names.
func (f Figure) Factor(unit string) (float64, bool) {
	if f.Base == "" {
		return 1, true
	}
	k, ok := figureUnits[f.Base][unit]
	return k, ok
}

// Estimate folds a cell's repetitions into the figure, in its base unit,
// with its 95 % interval; false when no repetition has the figure.
func (f Figure) Estimate(runs []*result.Run) (Estimate, bool) {
	if len(runs) == 0 {
		return Estimate{}, false
	}
	reps := make([]result.Run, len(runs))
	for i, r := range runs {
		reps[i] = *r
	}
	e := Estimate{N: len(runs), Lo: math.NaN(), Hi: math.NaN(), Few: fewForThroughput(reps)}
	if f.fromThroughput != nil {
		return f.derived(reps, e)
	}
	for _, r := range runs {
		if x := f.get(r); !math.IsNaN(x) {
			e.Reps = append(e.Reps, x)
		}
	}
	if len(e.Reps) == 0 {
		return Estimate{}, false
	}
	if pooled := pooledRun(reps); f.perRep {
		e.Value = meanOf(e.Reps)
	} else if f.perOp {
		e.Value = opsWeighted(runs, f.get)
	} else if e.Value = f.get(&pooled); math.IsNaN(e.Value) {
		e.Value = median(e.Reps)
	}
	var spread float64
	var ok bool
	switch {
	case f.total:
		// A count added up has no interval of its own.
	case f.rate:
		// The tables' ±, by construction: the spread of the operations'
		// rate, which every rate of the cell is a fixed multiple of.
		spread, ok = relSpread(pooledRun(reps).OpsPerS, reps)
	case f.mean && len(e.Reps) == 1:
		spread, ok = opsSpread(runs[0].Latency, runs[0].Ops)
	default:
		spread, ok = repSpread(e.Value, e.Reps)
	}
	if ok {
		e.Lo, e.Hi = e.Value*(1-spread), e.Value*(1+spread)
	} else if f.quantile > 0 && len(runs) == 1 {
		e.Lo, e.Hi = quantileInterval(runs[0].LatencyHDR, f.quantile)
	}
	return e, true
}

// quantileInterval is the 95 % interval of the q-th percentile of one
// repetition's operations, distribution-free: the values at the ranks
// n·q ± 1.96·√(n·q·(1−q)) of its histogram, one moment of the machine as
// a rate's progress intervals are. NaN without a histogram.
func quantileInterval(hdr string, q float64) (float64, float64) {
	h, err := result.DecodeHDR(hdr)
	if err != nil || h.TotalCount() < 2 {
		return math.NaN(), math.NaN()
	}
	n, p := float64(h.TotalCount()), q/100
	d := 1.96 * math.Sqrt(n*p*(1-p)) / n * 100
	lo, hi := math.Max(q-d, 0), math.Min(q+d, 100)
	return float64(h.ValueAtQuantile(lo)), float64(h.ValueAtQuantile(hi))
}

// derived is a figure that is a decreasing function of the pooled
// throughput: its value and interval are the throughput's, mapped.
func (f Figure) derived(reps []result.Run, e Estimate) (Estimate, bool) {
	pooled := pooledRun(reps)
	w := reps[0].Workers
	e.Value = f.fromThroughput(pooled.OpsPerS, w)
	if math.IsNaN(e.Value) {
		return Estimate{}, false
	}
	for _, r := range reps {
		if x := f.fromThroughput(r.OpsPerS, w); !math.IsNaN(x) {
			e.Reps = append(e.Reps, x)
		}
	}
	if spread, ok := relSpread(pooled.OpsPerS, reps); ok {
		lo, hi := pooled.OpsPerS*(1-spread), pooled.OpsPerS*(1+spread)
		e.Lo, e.Hi = f.fromThroughput(hi, w), math.Inf(1)
		if lo > 0 {
			e.Hi = f.fromThroughput(lo, w)
		}
	}
	return e, true
}

// repSpread is the half-width of the 95 % interval of the mean of the
// repetitions' values (Student's t, as relSpread) as a share of value;
// false with fewer than two values or a value of 0.
func repSpread(value float64, vals []float64) (float64, bool) {
	if len(vals) < 2 || value == 0 {
		return 0, false
	}
	s := benchmath.AssumeNormal.Summary(benchmath.NewSample(slices.Clone(vals), &benchmath.DefaultThresholds), confidence)
	if math.IsInf(s.Hi, 0) || math.IsNaN(s.Hi) {
		return 0, false
	}
	return (s.Hi - s.Lo) / 2 / math.Abs(value), true
}

// opsSpread is the half-width of the 95 % interval of a mean latency over
// ops operations, from their standard deviation, as a share of it.
func opsSpread(l result.Latency, ops int64) (float64, bool) {
	if ops < 2 || l.Mean <= 0 || l.Stddev <= 0 {
		return 0, false
	}
	t := 1.96 // Student's t is within 2 % of it past 30 operations
	if ops <= 30 {
		t = tOverRootN(int(ops)) * math.Sqrt(float64(ops))
	}
	return t * l.Stddev / math.Sqrt(float64(ops)) / l.Mean, true
}

// opsWeighted is the mean of the repetitions' figures weighted by their
// operations; the first repetition's when none completed any.
func opsWeighted(runs []*result.Run, get func(*result.Run) float64) float64 {
	var ops, sum float64
	for _, r := range runs {
		ops += float64(r.Ops)
		sum += get(r) * float64(r.Ops)
	}
	if ops == 0 {
		return get(runs[0])
	}
	return sum / ops
}

func meanOf(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func intervalCV(r *result.Run) float64 {
	if len(r.Intervals) < 3 {
		return math.NaN()
	}
	// The last interval may be a partial one: left out.
	iv := r.Intervals[:len(r.Intervals)-1]
	var sum, sq float64
	for _, x := range iv {
		sum += float64(x.Ops)
	}
	mean := sum / float64(len(iv))
	for _, x := range iv {
		sq += (float64(x.Ops) - mean) * (float64(x.Ops) - mean)
	}
	if mean == 0 {
		return math.NaN()
	}
	return 100 * math.Sqrt(sq/float64(len(iv)-1)) / mean
}
