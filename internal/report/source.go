package report

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Source is one result document and the name a report shows it under
// (usually its file name).
type Source struct {
	Name string
	Doc  *result.Document
}

// ReadSources reads each path as a result document, named by its base name.
func ReadSources(paths ...string) ([]Source, error) {
	srcs := make([]Source, 0, len(paths))
	for _, p := range paths {
		doc, err := result.ReadFile(p)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, Source{Name: filepath.Base(p), Doc: doc})
	}
	return srcs, nil
}

// defining returns the params of r, a run of doc, that define what it
// measured, by the roles doc declares (result.Document.Defining): compare
// matches runs by them, and reports split tables by them.
func defining(doc *result.Document, r *result.Run) map[string]string {
	return doc.Defining(r)
}

// entry is a run and the source it came from.
type entry struct {
	src int
	run *result.Run
}

func entriesOf(srcs []Source) []entry {
	var es []entry
	for i, s := range srcs {
		for j := range s.Doc.Runs {
			es = append(es, entry{src: i, run: &s.Doc.Runs[j]})
		}
	}
	return es
}

// splitKeys returns the params that tell apart runs of the same source,
// family, target and workload other than by repetition, for example
// fsync on and off in one invocation. They become part of a run's label.
func splitKeys(srcs []Source, es []entry) []string {
	type cell struct {
		src                      int
		family, target, workload string
	}
	first := map[cell]map[string]string{}
	keys := map[string]bool{}
	for _, e := range es {
		c := cell{e.src, e.run.Family, e.run.Target, e.run.Workload}
		p := defining(srcs[e.src].Doc, e.run)
		base, ok := first[c]
		if !ok {
			first[c] = p
			continue
		}
		for k, v := range p {
			if base[k] != v {
				keys[k] = true
			}
		}
		for k := range base {
			if _, ok := p[k]; !ok {
				keys[k] = true
			}
		}
	}
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// labeler names runs for tables and chart series: the target, the split
// params, and the source when there are several.
type labeler struct {
	srcs  []Source
	split []string
}

func newLabeler(srcs []Source, es []entry) labeler {
	return labeler{srcs: srcs, split: splitKeys(srcs, es)}
}

// config is the split params of r, "" when none.
func (l labeler) config(r *result.Run) string {
	var parts []string
	for _, k := range l.split {
		if v, ok := r.Params[k]; ok {
			parts = append(parts, result.Label(k)+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// target is the target with its config and, across sources, the source.
func (l labeler) target(e entry) string {
	s := e.run.Target
	if c := l.config(e.run); c != "" {
		s += " (" + c + ")"
	}
	if len(l.srcs) > 1 {
		s += " [" + l.srcs[e.src].Name + "]"
	}
	return s
}

// run names one run: target, workload and repetition.
func (l labeler) run(e entry) string {
	s := l.target(e) + " " + e.run.Workload
	if e.run.Repeat > 1 || l.repeated(e) {
		s += fmt.Sprintf(" #%d", e.run.Repeat)
	}
	return s
}

func (l labeler) repeated(e entry) bool {
	for _, r := range l.srcs[e.src].Doc.Runs {
		if r.Repeat > 1 {
			return true
		}
	}
	return false
}

// ordered returns the distinct values of key over es in first-seen order.
func ordered(es []entry, key func(entry) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range es {
		if k := key(e); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// median of vs; 0 when empty.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Clone(vs)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// pooledRun folds a table cell's repetitions into one run, as if they were
// one long run: throughput is all their operations over all their measured
// time, and the latencies come from their histograms added together, so
// every figure of the cell covers the same operations (a median per figure
// would take the throughput from one repetition and the p99 from another),
// and a repetition a noisy moment slowed weighs by its share of the
// operations instead of moving the cell from one mode to another, as a
// median of a few does. Extra figures are weighted by operations.
// Repetitions without histograms (a document older than latency_hdr) give
// each latency figure's median over them. Errors are summed, so a cell any
// repetition failed in is still marked.
func pooledRun(reps []result.Run) result.Run {
	out := reps[0]
	var secs float64
	var ops, rows, bytes int64
	for _, r := range reps {
		secs += r.DurationS
		ops += r.Ops
		rows += r.Rows
		bytes += r.Bytes
	}
	out.Ops, out.Rows, out.Bytes, out.DurationS = ops, rows, bytes, secs
	if secs > 0 {
		out.OpsPerS = float64(ops) / secs
		out.RowsPerS = float64(rows) / secs
		out.BytesPerS = float64(bytes) / secs
	} // else nothing ran (a cell the engine does not support)
	out.Latency = pooledLatency(reps)
	out.Phases = pooledPhases(reps)
	out.Extra = map[string]float64{}
	for k := range reps[0].Extra {
		var sum, weight float64
		for _, r := range reps {
			w := float64(r.Ops)
			if ops == 0 {
				w = 1 // a cell that ran nothing (not supported): a plain mean
			}
			sum += w * r.Extra[k]
			weight += w
		}
		out.Extra[k] = sum / weight
	}
	out.Errors = 0
	for _, r := range reps {
		out.Errors += r.Errors
	}
	return out
}

// pooledLatency is the latency of reps' histograms added together, or,
// when one has none (or it does not decode), each figure's median over
// them. A repetition that completed no operation adds nothing: its
// histogram is empty, and its zeros are no latency (a cell whose group
// commit outlasts a repetition would otherwise read as faster than its
// disk).
func pooledLatency(reps []result.Run) result.Latency {
	var hdrs []string
	var lats []result.Latency
	for _, r := range reps {
		if r.Ops > 0 {
			hdrs, lats = append(hdrs, r.LatencyHDR), append(lats, r.Latency)
		}
	}
	return poolLatencies(hdrs, lats)
}

// pooledPhases are reps' phases pooled as their latencies are: for each
// phase, the operations and time added, the percentiles from the
// repetitions' histograms added. A repetition that timed none of a phase
// adds nothing to it.
func pooledPhases(reps []result.Run) map[string]result.Phase {
	var out map[string]result.Phase
	for _, r := range reps {
		for name := range r.Phases {
			if _, done := out[name]; done {
				continue
			}
			var p result.Phase
			var hdrs []string
			var lats []result.Latency
			for _, r := range reps {
				if ph := r.Phases[name]; ph.Count > 0 {
					p.Count, p.TotalNs = p.Count+ph.Count, p.TotalNs+ph.TotalNs
					hdrs, lats = append(hdrs, ph.HDR), append(lats, ph.Latency)
				}
			}
			p.Latency = poolLatencies(hdrs, lats)
			if out == nil {
				out = map[string]result.Phase{}
			}
			out[name] = p
		}
	}
	return out
}

// poolLatencies adds the histograms of one latency's repetitions, hdrs,
// or, when one has none (a document older than them) or it does not
// decode, takes each figure's median over the repetitions' lats.
func poolLatencies(hdrs []string, lats []result.Latency) result.Latency {
	if len(hdrs) == 0 {
		return result.Latency{}
	}
	if !slices.Contains(hdrs, "") {
		if sum, err := addHDRs(hdrs); err == nil {
			return result.LatencyOf(sum)
		}
	}
	return medianLatency(lats)
}

// addHDRs decodes latency histograms (LatencyHDR) and adds them together;
// nil when there are none. dbmeter's histograms share one range, so an
// addition that drops values means one was not dbmeter's.
func addHDRs(encoded []string) (*hdrhistogram.Histogram, error) {
	var sum *hdrhistogram.Histogram
	for _, enc := range encoded {
		h, err := result.DecodeHDR(enc)
		if err != nil {
			return nil, err
		}
		var dropped int64
		if sum, dropped = hist.Add(sum, h); dropped > 0 {
			return nil, fmt.Errorf("add histograms: %d values outside the range of the others", dropped)
		}
	}
	return sum, nil
}

func medianLatency(lats []result.Latency) result.Latency {
	of := func(f func(l result.Latency) float64) float64 {
		vs := make([]float64, len(lats))
		for i, l := range lats {
			vs[i] = f(l)
		}
		return median(vs)
	}
	ofInt := func(f func(l result.Latency) int64) int64 {
		return int64(math.Round(of(func(l result.Latency) float64 { return float64(f(l)) })))
	}
	return result.Latency{
		Min:    ofInt(func(l result.Latency) int64 { return l.Min }),
		Mean:   of(func(l result.Latency) float64 { return l.Mean }),
		Stddev: of(func(l result.Latency) float64 { return l.Stddev }),
		P50:    ofInt(func(l result.Latency) int64 { return l.P50 }),
		P90:    ofInt(func(l result.Latency) int64 { return l.P90 }),
		P99:    ofInt(func(l result.Latency) int64 { return l.P99 }),
		P999:   ofInt(func(l result.Latency) int64 { return l.P999 }),
		Max:    ofInt(func(l result.Latency) int64 { return l.Max }),
	}
}
