package load

import (
	"cmp"
	"maps"
	"runtime"
	"slices"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Result is what Run measured.
type Result struct {
	// StartOffset is how late the run started after Config.StartAt.
	StartOffset time.Duration
	Mode        string
	Ops         []string      // operation names, indexing Set and Intervals
	Phases      []string      // phase names, indexing each Op's Phases
	Elapsed     time.Duration // the measured window
	Set         hist.Set      // per operation, over the whole window
	Dropped     int64         // open-loop arrivals that found no free worker
	// Intervals holds each operation's intervals; Total holds all of them
	// together. Both are empty when the run had no interval.
	Intervals [][]result.Interval
	Total     []result.Interval
	Cost      costSample // CPU and allocations of the window
	CPUs      int        // cores the process could use
	Warnings  []string
	// ErrorSamples holds the first message of each kind of measured error,
	// per operation.
	ErrorSamples map[ErrorSample]string
	Interrupted  bool
}

func (c costSample) sub(from costSample) costSample {
	return costSample{cpu: c.cpu - from.cpu, children: max(0, c.children-from.children), allocs: c.allocs - from.allocs, allocBytes: c.allocBytes - from.allocBytes, written: c.written - from.written}
}

// WrittenBytes is what the process caused to be written to storage during
// the measured window (ProcessWrittenBytes).
func (r *Result) WrittenBytes() int64 { return r.Cost.written }

func usableCPUs() int { return min(runtime.NumCPU(), runtime.GOMAXPROCS(0)) }

// CPUUtil is the share of the available CPU the process used in the window.
func (r *Result) CPUUtil() float64 {
	avail := r.Elapsed.Seconds() * float64(r.CPUs)
	if avail <= 0 {
		return 0
	}
	return r.Cost.cpu.Seconds() / avail
}

// OpIndex returns the index of the named operation, or -1.
func (r *Result) OpIndex(name string) int {
	for i, n := range r.Ops {
		if n == name {
			return i
		}
	}
	return -1
}

// Stats returns the figures of operation i, or of all operations when i is
// -1. Client cost is the whole window's, divided per operation by the
// operations it covers (all of them: the process cost cannot be split).
func (r *Result) Stats(i int) result.Stats {
	var op hist.Op
	intervals := r.Total
	if i < 0 {
		op = r.Set.Total()
	} else {
		op = r.Set[i]
		intervals = r.Intervals[i]
	}
	secs := r.Elapsed.Seconds()
	per := func(v float64) float64 {
		if secs <= 0 {
			return 0
		}
		return v / secs
	}
	s := result.Stats{
		DurationS:  secs,
		Ops:        op.Ops,
		Errors:     op.Errors,
		ErrorKinds: map[string]int64{},
		OpsPerS:    per(float64(op.Ops)),
		RowsPerS:   per(float64(op.Rows)),
		BytesPerS:  per(float64(op.Bytes)),
		Rows:       op.Rows,
		Bytes:      op.Bytes,
		Latency:    result.LatencyOf(op.Latency),
		Intervals:  intervals,
	}
	if intervals == nil {
		s.Intervals = []result.Interval{}
	}
	for k, n := range op.Kinds {
		s.ErrorKinds[k] = n
	}
	if i < 0 || len(r.Ops) == 1 {
		s.Dropped = r.Dropped
	}
	s.Service = s.Latency
	if op.Service != nil {
		s.Service = result.LatencyOf(op.Service)
		s.ServiceHDR = encodeHDR(op.Service)
	}
	if op.Lag != nil {
		s.Lag = result.LatencyOf(op.Lag)
		s.LagHDR = encodeHDR(op.Lag)
	}
	s.LatencyHDR = encodeHDR(op.Latency)
	all := r.Set.Total()
	n := float64(all.Ops + all.Errors)
	s.Client = result.Client{
		CPUS:        r.Cost.cpu.Seconds(),
		WorkersCPUS: r.Cost.children.Seconds(),
		Allocs:      int64(r.Cost.allocs),
		AllocBytes:  int64(r.Cost.allocBytes),
		CPUUtil:     r.CPUUtil(),
	}
	if n > 0 {
		s.Client.CPUNsPerOp = float64(r.Cost.cpu.Nanoseconds()) / n
		s.Client.WorkersCPUNsPerOp = float64(r.Cost.children.Nanoseconds()) / n
		s.Client.AllocsPerOp = float64(r.Cost.allocs) / n
		s.Client.AllocBytesPer = float64(r.Cost.allocBytes) / n
	}
	return s
}

func encodeHDR(h *hdrhistogram.Histogram) string {
	if h == nil || h.TotalCount() == 0 {
		return ""
	}
	enc, _ := result.EncodeHDR(h) // only fails on a nil histogram
	return enc
}

// PhaseStats returns the phases of operation i (-1: all operations).
func (r *Result) PhaseStats(i int) map[string]result.Phase {
	if len(r.Phases) == 0 {
		return nil
	}
	var op hist.Op
	if i < 0 {
		op = r.Set.Total()
	} else {
		op = r.Set[i]
	}
	out := make(map[string]result.Phase, len(r.Phases))
	for p, name := range r.Phases {
		ph := op.Phases[p]
		out[name] = result.PhaseOf(ph.Hist, ph.TotalNs)
	}
	return out
}

// Fill completes run with what cfg asked for and res measured for operation
// op (-1: all operations). The caller sets the family, target, workload,
// params and repeat.
func (r *Result) Fill(run result.Run, cfg Config, op int) result.Run {
	run.Mode = cfg.Mode()
	run.Workers = cfg.Workers
	run.Rate = cfg.Rate
	run.Seed = cfg.Seed
	if cfg.Shard.Sharded() || !cfg.StartAt.IsZero() {
		run.Shard = &result.Shard{Index: cfg.Shard.Index, Count: cfg.Shard.Count, StartOffsetNs: r.StartOffset.Nanoseconds()}
		if !cfg.StartAt.IsZero() {
			run.Shard.StartAt = cfg.StartAt.UTC().Format(time.RFC3339Nano)
		}
	}
	run.Stats = r.Stats(op)
	run.Phases = r.PhaseStats(op)
	run.Warnings = append(run.Warnings, r.Warnings...)
	run.ErrorSamples = r.SamplesOf(op)
	run.Interrupted = r.Interrupted
	return run
}

// ErrorSample is what a first error message is kept for: an operation and
// an error kind.
type ErrorSample struct {
	Op   uint8
	Kind string
}

// SamplesOf returns the first message of each error kind of operation i,
// or of all operations when i is -1 (the lowest operation's, where several
// had the kind); nil when there was no error.
func (r *Result) SamplesOf(i int) map[string]string {
	var out map[string]string
	byOp := func(a, b ErrorSample) int { return cmp.Compare(a.Op, b.Op) }
	for _, k := range slices.SortedFunc(maps.Keys(r.ErrorSamples), byOp) {
		if _, ok := out[k.Kind]; ok || (i >= 0 && int(k.Op) != i) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k.Kind] = r.ErrorSamples[k]
	}
	return out
}
