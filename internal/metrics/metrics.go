package metrics

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"sync"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dbmeter/dbmeter/internal/load"
)

// Metric names, as the Grafana dashboard and docs/reports.md use them.
const (
	OpsTotal        = "dbmeter_operations_total"
	ErrorsTotal     = "dbmeter_errors_total"
	RowsTotal       = "dbmeter_rows_total"
	BytesTotal      = "dbmeter_bytes_total"
	DroppedTotal    = "dbmeter_dropped_total"
	Latency         = "dbmeter_latency_seconds"
	IntervalLatency = "dbmeter_interval_latency_seconds"
)

// Buckets are the latency histogram's upper bounds in seconds: 1-2-5 steps
// from 100 ns to 10 s, wide enough for an in-memory map and a stalled
// server alike, few enough for a readable heatmap.
var Buckets = bucketBounds()

func bucketBounds() []float64 {
	var b []float64
	for exp := -7; exp <= 1; exp++ {
		for _, m := range []int{1, 2, 5} {
			// Parsed from decimal so that the le labels read 5e-06, not
			// 4.9999999999999996e-06.
			v, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", m, exp), 64)
			if v <= 10 {
				b = append(b, v)
			}
		}
	}
	return b
}

// quantiles are the exact interval percentiles published as gauges; the
// histogram's buckets are too coarse for a p99 line.
var quantiles = []struct {
	label string
	q     float64
}{{"0.5", 50}, {"0.99", 99}, {"0.999", 99.9}, {"1", 100}}

var (
	opLabels   = []string{"family", "target", "workload", "operation"}
	runLabels  = []string{"family", "target", "workload"}
	descOps    = prometheus.NewDesc(OpsTotal, "Operations that succeeded.", opLabels, nil)
	descRows   = prometheus.NewDesc(RowsTotal, "Rows the operations moved.", opLabels, nil)
	descBytes  = prometheus.NewDesc(BytesTotal, "Bytes the operations moved.", opLabels, nil)
	descErrors = prometheus.NewDesc(ErrorsTotal, "Operations that failed, by kind.", append(opLabels[:4:4], "kind"), nil)
	descDrop   = prometheus.NewDesc(DroppedTotal, "Open-loop arrivals dropped because too many operations were in flight.", runLabels, nil)
	descLat    = prometheus.NewDesc(Latency, "Latency of successful operations from their intended start.", opLabels, nil)
	descIvLat  = prometheus.NewDesc(IntervalLatency, "Exact latency percentile over the last progress interval.", append(opLabels[:4:4], "quantile"), nil)
)

// Metrics holds the live figures of every run of one dbmeter invocation.
// Its methods are safe for concurrent use.
type Metrics struct {
	reg *prometheus.Registry
	mu  struct {
		sync.Mutex
		ops  map[opKey]*opState
		runs map[runKey]uint64 // dropped arrivals
	}
}

type runKey struct{ family, target, workload string }

type opKey struct {
	runKey
	operation string
}

type opState struct {
	ops, rows, bytes uint64
	errors           map[string]uint64
	buckets          []uint64 // per bound, not cumulative; the last is +Inf
	sum              float64  // seconds
	interval         [4]float64
}

// New returns Metrics with the Go runtime and process collectors, so a
// dashboard can also show what dbmeter itself spends.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.mu.ops = map[opKey]*opState{}
	m.mu.runs = map[runKey]uint64{}
	m.reg.MustRegister(collector{m}, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Registry returns the registry, for tests that gather without HTTP.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Watcher returns the load.Watcher that feeds one run's ticks into m. ops
// names the run's operations in the order of load.Tick.Ops; a missing name
// is taken from the workload when the run has one operation.
func (m *Metrics) Watcher(family, target, workload string, ops []string) load.Watcher {
	return watcher{m: m, key: runKey{family, target, workload}, ops: ops}
}

type watcher struct {
	m   *Metrics
	key runKey
	ops []string
}

// Tick adds one interval. It holds the lock only to add numbers; the
// bucket counts are computed before.
func (w watcher) Tick(t load.Tick) {
	type add struct {
		key      opKey
		ops      uint64
		rows     uint64
		bytes    uint64
		errors   map[string]int64
		buckets  []uint64
		sum      float64
		interval [4]float64
	}
	adds := make([]add, len(t.Ops))
	for i := range t.Ops {
		op := &t.Ops[i]
		a := add{key: opKey{w.key, w.opName(i, len(t.Ops))}, ops: uint64(op.Ops), rows: uint64(op.Rows), bytes: uint64(op.Bytes), errors: op.Kinds}
		a.buckets, a.sum = bucketCounts(op.Latency)
		if op.Latency.TotalCount() > 0 {
			for j, q := range quantiles {
				a.interval[j] = float64(op.Latency.ValueAtPercentile(q.q)) / 1e9
			}
		}
		adds[i] = a
	}
	w.m.mu.Lock()
	defer w.m.mu.Unlock()
	w.m.mu.runs[w.key] += uint64(t.Interval.Dropped)
	for _, a := range adds {
		s := w.m.mu.ops[a.key]
		if s == nil {
			s = &opState{errors: map[string]uint64{}, buckets: make([]uint64, len(Buckets)+1)}
			w.m.mu.ops[a.key] = s
		}
		s.ops += a.ops
		s.rows += a.rows
		s.bytes += a.bytes
		for k, n := range a.errors {
			s.errors[k] += uint64(n)
		}
		for j, n := range a.buckets {
			s.buckets[j] += n
		}
		s.sum += a.sum
		if a.ops > 0 {
			s.interval = a.interval
		}
	}
}

func (w watcher) opName(i, n int) string {
	if i < len(w.ops) && w.ops[i] != "" {
		return w.ops[i]
	}
	if n == 1 {
		return w.key.workload
	}
	return "op" + strconv.Itoa(i)
}

// bucketCounts sorts h's recorded values into Buckets, each bar of equal
// values by its lowest equivalent value, and returns the sum in seconds.
func bucketCounts(h *hdrhistogram.Histogram) ([]uint64, float64) {
	out := make([]uint64, len(Buckets)+1)
	if h == nil || h.TotalCount() == 0 {
		return out, 0
	}
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		sec := float64(bar.From) / 1e9
		j := sort.SearchFloat64s(Buckets, sec) // first bound >= sec: le semantics
		out[j] += uint64(bar.Count)
	}
	return out, h.Mean() * float64(h.TotalCount()) / 1e9
}
