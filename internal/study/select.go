package study

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// fieldNames are the run fields a table's rows and columns are chosen by;
// params.NAME picks a setting.
var fieldNames = []string{"family", "target", "workload", "server", "mode", "workers"}

func isField(name string) bool {
	return slices.Contains(fieldNames, name) || (strings.HasPrefix(name, "params.") && len(name) > len("params."))
}

// field is run's value of a field name.
func field(r *result.Run, name string) string {
	switch name {
	case "family":
		return r.Family
	case "target":
		return r.Target
	case "workload":
		return r.Workload
	case "server":
		return r.Server
	case "mode":
		return r.Mode
	case "workers":
		return strconv.Itoa(r.Workers)
	}
	return r.Params[strings.TrimPrefix(name, "params.")]
}

// figure reads one figure of a run in the dbmeter unit, and says how the
// repetitions of a cell pool.
type figure struct {
	get func(r *result.Run) float64
	// latency names the histogram quantile pooled repetitions are read
	// at (0: not a latency); rate marks a per-second figure, pooled as
	// all repetitions' counts over all their time.
	quantile float64
	rate     func(r *result.Run) float64 // the count the rate divides
	base     string                      // "ns", "/s" or "" (as is)
}

var figures = map[string]figure{
	"throughput": {get: func(r *result.Run) float64 { return r.OpsPerS }, rate: func(r *result.Run) float64 { return float64(r.Ops) }, base: "/s"},
	"rows_s":     {get: func(r *result.Run) float64 { return r.RowsPerS }, rate: func(r *result.Run) float64 { return float64(r.Rows) }, base: "/s"},
	"bytes_s":    {get: func(r *result.Run) float64 { return r.BytesPerS }, rate: func(r *result.Run) float64 { return float64(r.Bytes) }, base: "B/s"},
	"p50":        {get: func(r *result.Run) float64 { return float64(r.Latency.P50) }, quantile: 50, base: "ns"},
	"p90":        {get: func(r *result.Run) float64 { return float64(r.Latency.P90) }, quantile: 90, base: "ns"},
	"p99":        {get: func(r *result.Run) float64 { return float64(r.Latency.P99) }, quantile: 99, base: "ns"},
	"p999":       {get: func(r *result.Run) float64 { return float64(r.Latency.P999) }, quantile: 99.9, base: "ns"},
	"max":        {get: func(r *result.Run) float64 { return float64(r.Latency.Max) }, quantile: 100, base: "ns"},
	"mean":       {get: func(r *result.Run) float64 { return r.Latency.Mean }, quantile: -1, base: "ns"},
	// interval_cv is the spread of the run's progress intervals' operation
	// counts (standard deviation over mean, %): how steady it was.
	"interval_cv": {get: intervalCV, base: "%"},
	// per_worker_ns is 1e9 / (throughput × workers): seed 004's "time"
	// column, which its numbers show is derived from the throughput, not
	// a latency (docs/studies.md).
	"per_worker_ns": {get: func(r *result.Run) float64 {
		if r.OpsPerS == 0 || r.Workers == 0 {
			return math.NaN()
		}
		return 1e9 / (r.OpsPerS * float64(r.Workers))
	}, base: "ns"},
	// latency_cv is the spread of the operations' latencies (standard
	// deviation over mean, %): how steady each operation's time was.
	"latency_cv": {get: func(r *result.Run) float64 {
		if r.Latency.Mean == 0 {
			return math.NaN()
		}
		return 100 * r.Latency.Stddev / r.Latency.Mean
	}, base: "%"},
}

// lookupFigure finds a figure by name: one of figures, or phase.NAME.STAT
// (STAT p50, p90, p99 or mean), the latency of a part of each operation a
// family times apart (ch query's decode, ch insert's build and send).
func lookupFigure(name string) (figure, bool) {
	if f, ok := figures[name]; ok {
		return f, true
	}
	rest, ok := strings.CutPrefix(name, "phase.")
	i := strings.LastIndex(rest, ".")
	if !ok || i <= 0 {
		return figure{}, false
	}
	phase, stat := rest[:i], rest[i+1:]
	pick := map[string]func(l result.Latency) float64{
		"p50": func(l result.Latency) float64 { return float64(l.P50) }, "p90": func(l result.Latency) float64 { return float64(l.P90) },
		"p99": func(l result.Latency) float64 { return float64(l.P99) }, "mean": func(l result.Latency) float64 { return l.Mean },
	}[stat]
	if pick == nil {
		return figure{}, false
	}
	return figure{base: "ns", get: func(r *result.Run) float64 {
		p, ok := r.Phases[phase]
		if !ok || p.Count == 0 {
			return math.NaN()
		}
		return pick(p.Latency)
	}}, true
}

func figureNames() []string {
	names := make([]string, 0, len(figures)+1)
	for n := range figures {
		names = append(names, n)
	}
	sort.Strings(names)
	return append(names, "phase.NAME.p50|p90|p99|mean", "extra.NAME")
}

// units converts a figure from dbmeter's base unit into a table's unit.
var units = map[string]map[string]float64{
	"ns":  {"ns": 1, "µs": 1e-3, "us": 1e-3, "ms": 1e-6, "s": 1e-9},
	"/s":  {"ops/s": 1, "k ops/s": 1e-3, "rows/s": 1, "k rows/s": 1e-3, "tps": 1, "k tps": 1e-3, "queries/s": 1},
	"B/s": {"B/s": 1, "MB/s": 1e-6},
	"%":   {"%": 1},
}

// convert returns the factor from the figure's base unit to unit.
func convert(name, unit string) (float64, bool) {
	if rest, ok := strings.CutPrefix(name, "extra."); ok && rest != "" {
		return 1, true
	}
	f, ok := lookupFigure(name)
	if !ok {
		return 0, false
	}
	k, ok := units[f.base][unit]
	return k, ok
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

// Measured is one cell's figure on this machine: its repetitions pooled,
// and each repetition's own value (for intervals in compare).
type Measured struct {
	Value float64
	Reps  []float64
	// Standin marks figures measured against the protocol stand-in: not a
	// server, never compared with a published number.
	Standin bool
}

// measure pools runs' figure (in the table's unit).
func measure(name, unit string, runs []*result.Run) (Measured, bool) {
	k, ok := convert(name, unit)
	if !ok || len(runs) == 0 {
		return Measured{}, false
	}
	var m Measured
	get := func(r *result.Run) float64 {
		if x, ok := r.Extra[strings.TrimPrefix(name, "extra.")]; ok {
			return x
		}
		return math.NaN()
	}
	f, known := lookupFigure(name)
	if known {
		get = f.get
	}
	for _, r := range runs {
		if x := get(r) * k; !math.IsNaN(x) {
			m.Reps = append(m.Reps, x)
		}
	}
	if len(m.Reps) == 0 {
		return Measured{}, false
	}
	m.Value = median(m.Reps)
	switch {
	case f.rate != nil:
		var n, d float64
		for _, r := range runs {
			n, d = n+f.rate(r), d+r.DurationS
		}
		if d > 0 {
			m.Value = n / d * k
		}
	case f.quantile != 0:
		if v, ok := pooledLatency(runs, f.quantile); ok {
			m.Value = v * k
		}
	}
	return m, true
}

// pooledLatency reads the quantile (-1: the mean) of runs' histograms
// added together; false when a run has none.
func pooledLatency(runs []*result.Run, q float64) (float64, bool) {
	if len(runs) == 1 {
		return 0, false
	}
	h0, err := result.DecodeHDR(runs[0].LatencyHDR)
	if err != nil {
		return 0, false
	}
	for _, r := range runs[1:] {
		h, err := result.DecodeHDR(r.LatencyHDR)
		if err != nil {
			return 0, false
		}
		h0.Merge(h)
	}
	if q < 0 {
		return h0.Mean(), true
	}
	return float64(h0.ValueAtQuantile(q)), true
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// selectRuns keeps the runs of t's Where, then groups them by the values
// of its rows and columns fields.
func (t *Table) selectRuns(runs []result.Run) (keep []*result.Run) {
	for i := range runs {
		r := &runs[i]
		ok := true
		for k, want := range t.Where {
			if field(r, k) != want {
				ok = false
			}
		}
		if ok {
			keep = append(keep, r)
		}
	}
	return keep
}

// key is the run field value a published label stands for: its Names
// entry or itself; #N is the Nth distinct value in run order.
func (t *Table) key(label, by string, runs []*result.Run) string {
	if v, ok := t.Names[label]; ok {
		label = v
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(label, "#")); err == nil && strings.HasPrefix(label, "#") {
		var seen []string
		for _, r := range runs {
			if v := field(r, by); !slices.Contains(seen, v) {
				seen = append(seen, v)
			}
		}
		if n >= 1 && n <= len(seen) {
			return seen[n-1]
		}
		return ""
	}
	return label
}

// cellRuns are the runs of one cell.
func (t *Table) cellRuns(runs []*result.Run, row, col string) []*result.Run {
	rk, ck := t.key(row, t.Rows, runs), t.key(col, t.Columns, runs)
	if rk == "" || ck == "" {
		return nil
	}
	var out []*result.Run
	for _, r := range runs {
		if field(r, t.Rows) == rk && field(r, t.Columns) == ck {
			out = append(out, r)
		}
	}
	return out
}
