package merge

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Input is one shard's result document and the name messages call it by
// (its path).
type Input struct {
	Name string
	doc  *document
}

// Read decodes the shard document r, called name in messages.
func Read(name string, r io.Reader) (Input, error) {
	doc, err := decode(r)
	if err != nil {
		return Input{}, fmt.Errorf("%s: %w", name, err)
	}
	return Input{Name: name, doc: doc}, nil
}

// ReadFile reads the shard document at path; its errors are usage errors.
func ReadFile(path string) (Input, error) {
	doc, err := readFile(path)
	if usage.Is(err) {
		return Input{}, err
	}
	if err != nil {
		return Input{}, usage.Wrap(fmt.Errorf("%s: %w", path, err))
	}
	return Input{Name: path, doc: doc}, nil
}

// Merged is the document of the whole test, made from its shards.
type Merged struct {
	doc *document
	// Warnings are what the caller should tell the user: shards that did
	// not start together, figures that could not be merged.
	Warnings []string
}

// Write writes the merged result document, new fields included.
func (m *Merged) Write(w io.Writer) error { return encode(w, m.doc) }

// Document is the merged document as a result.Document, for the reporters.
func (m *Merged) Document() *result.Document { return plain(m.doc) }

// IntervalUpperBound is Merge's warning that the merged document's
// interval percentiles are bounds, not exact: the documents hold no
// histogram per interval. The shards' interval logs (*.hlog) do, and
// their merge is exact (MergeIntervalLogFiles).
const IntervalUpperBound = "interval p50/p99 are the highest shard's, an upper bound of the merged value: the documents hold no histogram per interval"

// Merge combines the documents of every shard of one test into the
// document that test would have written on one machine: counts summed,
// histograms added and summarised again (a percentile is never averaged),
// throughput over the common measured window, intervals slot by slot.
func Merge(ctx context.Context, ins []Input) (*Merged, error) {
	ins, err := order(slices.Clone(ins))
	if err != nil {
		return nil, err
	}
	gs, err := groups(ins)
	if err != nil {
		return nil, err
	}
	m := &Merged{doc: header(ins)}
	for _, g := range gs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, warns, err := mergeRun(ins, g)
		if err != nil {
			return nil, err
		}
		m.doc.Runs = append(m.doc.Runs, r)
		m.Warnings = append(m.Warnings, warns...)
	}
	if slices.ContainsFunc(m.doc.Runs, func(r run) bool { return len(r.Intervals) > 0 }) && len(ins) > 1 {
		m.Warnings = append(m.Warnings, IntervalUpperBound)
	}
	return m, nil
}

// header is the merged document without its runs.
func header(ins []Input) *document {
	first := ins[0].doc
	doc := &document{Document: first.Document}
	doc.Document.Runs = nil
	doc.Command = testCommand(first)
	if doc.Observed != nil {
		doc.Observed = maps.Clone(doc.Observed)
		delete(doc.Observed, "shard") // the merged document is the whole test
	}
	doc.Runs = make([]run, 0, len(first.Runs))
	for _, in := range ins {
		d := in.doc
		if d.StartedAt.Before(doc.StartedAt) {
			doc.StartedAt = d.StartedAt
		}
		doc.Interrupted = doc.Interrupted || d.Interrupted
		s := d.Runs[0].Shard
		doc.Shards = append(doc.Shards, ShardSource{
			Index: s.Index, File: in.Name, Command: d.Command,
			StartedAt: d.StartedAt, StartOffsetNs: s.StartOffsetNs, Env: d.Env,
		})
	}
	return doc
}

// mergeRun merges the runs rs, one a shard in shard order: what names
// the run, then its counts, histograms, throughput and the figures each
// kind of run adds. Each field of result.Run is set by what it means for
// the whole test (a test lists them all, so a new field fails it until it
// is merged here).
func mergeRun(ins []Input, rs []*run) (run, []string, error) {
	out := identity(rs[0])
	name := label(rs[0])
	who := func(i int) string { return ins[i].Name + ": " + name }
	warns := addCounts(&out, ins, rs)
	hw, err := mergeHists(&out, rs, who)
	if err != nil {
		return run{}, nil, err
	}
	warns = append(warns, hw...)
	warns = append(warns, mergeThroughput(&out, ins, rs)...)
	out.Intervals = mergeIntervals(rs)
	out.Client = mergeClient(rs, out.Ops)
	var ewarns []string
	out.Extra, out.Figures, ewarns = mergeExtra(rs)
	if out.ServerStats, err = mergeServerStats(rs, out.Ops+out.Errors, who); err != nil {
		return run{}, nil, err
	}
	for _, w := range ewarns {
		warns = append(warns, name+": "+w)
	}
	return out, warns, nil
}

// identity is the merged run with what names it, the same in every shard
// since groups matched the shards' runs by it (less the shard itself).
func identity(first *run) run {
	params := maps.Clone(first.Params)
	delete(params, "shard")
	out := run{Run: result.Run{
		Family: first.Family, Target: first.Target, Workload: first.Workload, Mode: first.Mode,
		Repeat: first.Repeat, Seed: first.Seed, Step: first.Step, Verdict: first.Verdict,
		Server: first.Server, Params: params,
	}}
	out.ErrorKinds = map[string]int64{}
	return out
}

// addCounts adds what every shard counted (workers, rate, operations,
// errors, rows, bytes), keeps each error sample and warning with its
// shard, and warns of shards that ran against another server.
func addCounts(out *run, ins []Input, rs []*run) (warns []string) {
	first := rs[0]
	for i, r := range rs {
		out.Workers += r.Workers
		out.Rate += r.Rate
		out.Ops += r.Ops
		out.Errors += r.Errors
		out.Dropped += r.Dropped
		out.Rows += r.Rows
		out.Bytes += r.Bytes
		for k, n := range r.ErrorKinds {
			out.ErrorKinds[k] += n
		}
		for k, msg := range r.ErrorSamples {
			if _, ok := out.ErrorSamples[k]; !ok {
				if out.ErrorSamples == nil {
					out.ErrorSamples = map[string]string{}
				}
				out.ErrorSamples[k] = fmt.Sprintf("shard %d: %s", r.Shard.Index, msg)
			}
		}
		for _, w := range r.Warnings {
			out.Warnings = append(out.Warnings, fmt.Sprintf("shard %d: %s", r.Shard.Index, w))
		}
		out.Interrupted = out.Interrupted || r.Interrupted
		out.External = slowestExternal(out.External, r.External)
		if r.Server != first.Server {
			warns = append(warns, fmt.Sprintf("%s: %s ran against server %q, %s against %q", label(first), ins[i].Name, r.Server, ins[0].Name, first.Server))
		}
	}
	return warns
}

// slowestExternal adds a shard's external workers to the ones merged so
// far. Each shard timed its own workers' round trip; percentiles cannot
// be added, so the merged run shows the slowest shard's.
func slowestExternal(sum, x *result.ExternalClient) *result.ExternalClient {
	if x == nil {
		return sum
	}
	ext := *x
	if sum != nil {
		ext = *sum
		ext.RTT.P50, ext.RTT.P99, ext.RTT.N = max(ext.RTT.P50, x.RTT.P50), max(ext.RTT.P99, x.RTT.P99), ext.RTT.N+x.RTT.N
	}
	return &ext
}

// mergeHists adds the shards' latency, service time, schedule lag and
// phase histograms and summarises the sums. Latency must merge; the
// other histograms are newer than latency_hdr, so a figure some shard
// summarised without its histogram is left out with a warning, not
// summarised from the rest.
func mergeHists(out *run, rs []*run, who func(int) string) (warns []string, err error) {
	if out.Latency, out.LatencyHDR, err = sumHists(rs, who, func(r *run) (string, result.Latency) { return r.LatencyHDR, r.Latency }); err != nil {
		return nil, err
	}
	optional := func(what string, get func(*run) (string, result.Latency)) (result.Latency, string) {
		lat, enc, err := sumHists(rs, who, get)
		if err != nil {
			warns = append(warns, fmt.Sprintf("%s left out: %v", what, err))
			return result.Latency{}, ""
		}
		return lat, enc
	}
	if out.Mode == "closed" {
		// Closed loop starts each operation when it is due: its service
		// time is its latency, and a run keeps no histogram of its own.
		out.Service = out.Latency
	} else {
		out.Service, out.ServiceHDR = optional("service time", func(r *run) (string, result.Latency) { return r.ServiceHDR, r.Service })
	}
	out.Lag, out.LagHDR = optional("schedule lag", func(r *run) (string, result.Latency) { return r.LagHDR, r.Lag })
	if out.Phases, err = mergePhases(rs, who); err != nil {
		return nil, err
	}
	return warns, nil
}

// mergeThroughput sets the test's duration and rates: over the window in
// which every shard was measuring, or, when the shards' windows do not
// overlap, the sum of each shard's own (with a warning). It warns too of
// shards that started too far apart for their intervals to line up.
func mergeThroughput(out *run, ins []Input, rs []*run) (warns []string) {
	name := label(rs[0])
	w := commonWindow(rs)
	if w.ok {
		var ops, rows, bytes float64
		for i, r := range rs {
			f := w.fraction(r, i)
			ops += float64(r.Ops) * f
			rows += float64(r.Rows) * f
			bytes += float64(r.Bytes) * f
		}
		out.DurationS = w.seconds()
		out.OpsPerS, out.RowsPerS, out.BytesPerS = ops/out.DurationS, rows/out.DurationS, bytes/out.DurationS
	} else {
		out.OpsPerS, out.RowsPerS, out.BytesPerS = 0, 0, 0
		for _, r := range rs {
			out.OpsPerS += r.OpsPerS
			out.RowsPerS += r.RowsPerS
			out.BytesPerS += r.BytesPerS
		}
		warns = append(warns, fmt.Sprintf("%s: the shards' measured windows do not overlap; throughput is the sum of each shard's own", name))
	}
	skew, late := w.skew()
	if every := progressInterval(ins[0].doc, rs[0]); skew > every/10 {
		warns = append(warns, fmt.Sprintf("%s: shards started %s apart (%s), more than a tenth of the %s progress interval: interval k of each shard does not cover the same seconds", name, skew, late, every))
	}
	return warns
}

// sumHists adds the histograms get returns for every run and summarises
// the sum. A run whose summary shows values but that has no histogram
// cannot be merged exactly: that is an error.
func sumHists(rs []*run, who func(int) string, get func(*run) (string, result.Latency)) (result.Latency, string, error) {
	var sum *hdrhistogram.Histogram
	for i, r := range rs {
		enc, lat := get(r)
		if enc == "" {
			if lat != (result.Latency{}) {
				return result.Latency{}, "", fmt.Errorf("%s has a latency summary but no histogram, so its percentiles cannot be merged exactly", who(i))
			}
			continue
		}
		h, err := result.DecodeHDR(enc)
		if err != nil {
			return result.Latency{}, "", fmt.Errorf("%s: %w", who(i), err)
		}
		var dropped int64
		if sum, dropped = hist.Add(sum, h); dropped > 0 {
			return result.Latency{}, "", fmt.Errorf("%s: %d values outside the range of the other shards' histograms", who(i), dropped)
		}
	}
	if sum == nil {
		return result.Latency{}, "", nil
	}
	enc, err := result.EncodeHDR(sum)
	return result.LatencyOf(sum), enc, err
}

// mergePhases merges each phase any shard timed.
func mergePhases(rs []*run, who func(int) string) (map[string]Phase, error) {
	names := map[string]bool{}
	for _, r := range rs {
		for n := range r.Phases {
			names[n] = true
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	out := make(map[string]Phase, len(names))
	for n := range names {
		var p Phase
		for _, r := range rs {
			p.Count += r.Phases[n].Count
			p.TotalNs += r.Phases[n].TotalNs
		}
		var err error
		p.Latency, p.HDR, err = sumHists(rs, func(i int) string { return who(i) + " phase " + n },
			func(r *run) (string, result.Latency) { return r.Phases[n].HDR, r.Phases[n].Latency })
		if err != nil {
			return nil, err
		}
		out[n] = p
	}
	return out, nil
}

// progressInterval is the progress interval of r, a run of doc: the one
// the invocation asked for, else the end of its first interval, else the
// default second.
func progressInterval(doc *document, r *run) time.Duration {
	if d, ok := doc.ProgressInterval(&r.Run); ok {
		return d
	}
	if len(r.Intervals) > 0 && r.Intervals[0].TS > 0 {
		return time.Duration(r.Intervals[0].TS * float64(time.Second))
	}
	return time.Second
}

// mergeIntervals adds the intervals slot by slot: interval k of every shard
// covers the same seconds of the common clock (shards start together at
// their shard's start_at; skew beyond a tenth of the interval is warned).
// Its end is the latest shard's. Percentiles cannot be added; each slot
// keeps the highest shard's, an upper bound of the merged one.
func mergeIntervals(rs []*run) []result.Interval {
	n := 0
	for _, r := range rs {
		n = max(n, len(r.Intervals))
	}
	out := make([]result.Interval, n)
	for _, r := range rs {
		for k, iv := range r.Intervals {
			o := &out[k]
			o.TS = max(o.TS, iv.TS)
			o.Ops += iv.Ops
			o.Errors += iv.Errors
			o.Dropped += iv.Dropped
			o.P50 = max(o.P50, iv.P50)
			o.P99 = max(o.P99, iv.P99)
		}
	}
	return out
}

// mergeClient adds what the shards' processes spent.
func mergeClient(rs []*run, ops int64) result.Client {
	var c result.Client
	var avail float64 // CPU seconds the shards could use
	for _, r := range rs {
		c.CPUS += r.Client.CPUS
		c.Allocs += r.Client.Allocs
		c.AllocBytes += r.Client.AllocBytes
		if r.Client.CPUUtil > 0 {
			avail += r.Client.CPUS / r.Client.CPUUtil
		}
	}
	if ops > 0 {
		c.CPUNsPerOp = c.CPUS * 1e9 / float64(ops)
		c.AllocsPerOp = float64(c.Allocs) / float64(ops)
		c.AllocBytesPer = float64(c.AllocBytes) / float64(ops)
	}
	if avail > 0 {
		c.CPUUtil = c.CPUS / avail
	}
	return c
}

// sortedKeys returns m's keys in order, so output does not depend on map
// iteration.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// joinNames lists names for a message.
func joinNames(names []string) string { return strings.Join(names, ", ") }
