package merge

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/null"
	"github.com/dbmeter/dbmeter/internal/pg/bench"
	"github.com/dbmeter/dbmeter/internal/result"
)

var startAt = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// shardSpec describes one generated shard of a test.
type shardSpec struct {
	index, count int
	command      string
	offset       time.Duration // real start after start_at
	duration     float64       // seconds
	latency      []int64       // values recorded into latency_hdr
	service, lag []int64
	phase        []int64 // values of phase "build"
	intervals    []int64 // ops per 1 s interval
	extra        map[string]float64
	figures      result.Declarations
}

func shardCommand(i, n int) string {
	return fmt.Sprintf("dbmeter null --duration 10s --workers 4 --shard %d/%d --json s%d.json", i, n, i)
}

func record(vs []int64) (*hdrhistogram.Histogram, string) {
	h := hist.New()
	for _, v := range vs {
		if err := h.RecordValue(v); err != nil {
			panic(err)
		}
	}
	enc, err := result.EncodeHDR(h)
	if err != nil {
		panic(err)
	}
	return h, enc
}

// build makes the shard's document.
func (s shardSpec) build() *document {
	if s.command == "" {
		s.command = shardCommand(s.index, s.count)
	}
	if s.duration == 0 {
		s.duration = 10
	}
	r := run{Run: result.Run{
		Family: "null", Target: "null", Workload: "noop", Mode: "closed", Workers: 4,
		Params: map[string]string{"duration": "10s", "workers": "4", "shard": fmt.Sprintf("%d/%d", s.index, s.count), "seed": fmt.Sprint(s.index)},
	}}
	r.DurationS = s.duration
	lat, enc := record(s.latency)
	r.Ops, r.Latency, r.LatencyHDR = int64(len(s.latency)), result.LatencyOf(lat), enc
	r.Rows, r.Bytes = 2*r.Ops, 100*r.Ops
	r.ErrorKinds = map[string]int64{"timeout": int64(s.index)}
	r.Errors = int64(s.index)
	if s.index > 0 {
		r.ErrorSamples = map[string]string{"timeout": fmt.Sprintf("timed out in shard %d", s.index)}
	}
	r.OpsPerS = float64(r.Ops) / s.duration
	if s.service != nil {
		h, enc := record(s.service)
		r.Mode, r.Service, r.ServiceHDR = "open", result.LatencyOf(h), enc
	} else {
		r.Service = r.Latency // as a closed-loop run writes it: no histogram of its own
	}
	if s.lag != nil {
		h, enc := record(s.lag)
		l := result.LatencyOf(h)
		r.Lag, r.LagHDR = l, enc
	}
	if s.phase != nil {
		h, enc := record(s.phase)
		r.Phases = map[string]Phase{"build": {Count: h.TotalCount(), Latency: result.LatencyOf(h), TotalNs: sum(s.phase), HDR: enc}}
	}
	for k, n := range s.intervals {
		r.Intervals = append(r.Intervals, result.Interval{TS: float64(k + 1), Ops: n, P50: 100 * int64(k+1), P99: 1000 + int64(s.index)})
	}
	r.Client = result.Client{CPUS: 2, Allocs: 10, AllocBytes: 1000, CPUUtil: 0.5}
	for k, v := range s.extra {
		if f, ok := s.figures.Lookup(k); ok {
			r.SetExtra(k, v, f)
			continue
		}
		if r.Extra == nil {
			r.Extra = map[string]float64{}
		}
		r.Extra[k] = v // as a document written before declarations
	}
	r.Shard = &Shard{Index: s.index, Count: s.count, StartAt: startAt.Format(time.RFC3339Nano), StartOffsetNs: int64(s.offset)}
	doc := &document{Document: result.Document{
		Schema: result.Schema, Tool: result.Tool{Name: "dbmeter", Version: "test"},
		StartedAt: startAt, Command: s.command, Env: result.Env{CPUs: 2 + s.index},
	}}
	doc.Runs = []run{r}
	return doc
}

func sum(vs []int64) int64 {
	var t int64
	for _, v := range vs {
		t += v
	}
	return t
}

// inputs encodes the documents and reads them back as merge's inputs, so
// tests go through the JSON as users' files do.
func inputs(t testing.TB, docs ...*document) []Input {
	t.Helper()
	var ins []Input
	for i, d := range docs {
		var buf bytes.Buffer
		if err := encode(&buf, d); err != nil {
			t.Fatal(err)
		}
		in, err := Read(fmt.Sprintf("s%d.json", i), &buf)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	return ins
}

// values draws n latencies in nanoseconds from a long-tailed distribution.
func values(seed uint64, n int) []int64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(math.Exp(rng.NormFloat64()*1.5+11)) + 1 // median ~60 µs, tail to seconds
	}
	return out
}

// split deals vs to n shards by how.
func split(vs []int64, n int, how string) [][]int64 {
	out := make([][]int64, n)
	switch how {
	case "round robin":
		for i, v := range vs {
			out[i%n] = append(out[i%n], v)
		}
	case "sorted blocks": // each shard a disjoint range: its own percentiles are far from the union's
		s := slices.Clone(vs)
		slices.Sort(s)
		for i := range n {
			out[i] = s[i*len(s)/n : (i+1)*len(s)/n]
		}
	case "skewed": // shard 0 gets 90%
		for i, v := range vs {
			k := 0
			if i%10 == 9 {
				k = 1 + i%(max(n-1, 1))
				k = min(k, n-1)
			}
			out[k] = append(out[k], v)
		}
	}
	return out
}

func TestMergeIsTheHistogramOfTheUnion(t *testing.T) {
	t.Parallel()
	all := values(1, 200_000)
	svc := values(2, 200_000)
	for _, tc := range []struct {
		shards int
		how    string
	}{
		{1, "round robin"},
		{2, "round robin"},
		{3, "sorted blocks"},
		{7, "sorted blocks"},
		{4, "skewed"},
		{16, "round robin"},
	} {
		t.Run(fmt.Sprintf("%d shards %s", tc.shards, tc.how), func(t *testing.T) {
			t.Parallel()
			lat, s := split(all, tc.shards, tc.how), split(svc, tc.shards, tc.how)
			var docs []*document
			for i := tc.shards - 1; i >= 0; i-- { // given out of order on purpose
				docs = append(docs, shardSpec{index: i, count: tc.shards, latency: lat[i], service: s[i], lag: s[i], phase: lat[i],
					intervals: []int64{int64(len(lat[i])) / 2, int64(len(lat[i])) - int64(len(lat[i]))/2}}.build())
			}
			m, err := Merge(context.Background(), inputs(t, docs...))
			if err != nil {
				t.Fatal(err)
			}
			whole, _ := record(all)
			wholeSvc, _ := record(svc)
			want, wantSvc := result.LatencyOf(whole), result.LatencyOf(wholeSvc)
			r := m.doc.Runs[0]
			if r.Latency != want {
				t.Errorf("merged latency %+v\n want the union's %+v", r.Latency, want)
			}
			if r.Service != wantSvc || r.Lag != wantSvc {
				t.Errorf("merged service %+v, lag %+v; want %+v", r.Service, r.Lag, wantSvc)
			}
			if p := r.Phases["build"]; p.Latency != want || p.Count != int64(len(all)) || p.TotalNs != sum(all) {
				t.Errorf("merged phase %+v; want %+v, count %d, total %d", p, want, len(all), sum(all))
			}
			h, err := result.DecodeHDR(r.LatencyHDR)
			if err != nil || !h.Equals(whole) {
				t.Errorf("merged latency_hdr is not the union's histogram (err %v)", err)
			}
			if r.Ops != int64(len(all)) || r.Rows != 2*r.Ops || r.Bytes != 100*r.Ops {
				t.Errorf("ops, rows, bytes = %d, %d, %d; want %d, %d, %d", r.Ops, r.Rows, r.Bytes, len(all), 2*len(all), 100*len(all))
			}
			if got, want := r.OpsPerS, float64(len(all))/10; math.Abs(got-want) > 1e-6*want {
				t.Errorf("throughput %f, want %f", got, want)
			}
			if len(r.Intervals) != 2 || r.Intervals[0].Ops+r.Intervals[1].Ops != int64(len(all)) {
				t.Errorf("intervals %+v do not add up to %d ops", r.Intervals, len(all))
			}
			wantErrs := int64(tc.shards * (tc.shards - 1) / 2)
			if r.Errors != wantErrs || r.ErrorKinds["timeout"] != wantErrs {
				t.Errorf("errors %d, kinds %v; want %d timeouts", r.Errors, r.ErrorKinds, wantErrs)
			}
			if want := "shard 1: timed out in shard 1"; tc.shards > 1 && r.ErrorSamples["timeout"] != want {
				t.Errorf("error samples %q, want the first shard's message %q", r.ErrorSamples, want)
			}
			if r.Workers != 4*tc.shards || r.Shard != nil || r.Params["shard"] != "" {
				t.Errorf("workers %d, shard %v, params %v", r.Workers, r.Shard, r.Params)
			}
			if len(m.doc.Shards) != tc.shards || m.doc.Shards[tc.shards-1].Env.CPUs != 2+tc.shards-1 {
				t.Errorf("shards list %+v: want every shard's environment", m.doc.Shards)
			}

			// The merged document is an ordinary one: result.Read takes it,
			// and reads the figures merge wrote.
			var buf bytes.Buffer
			if err := m.Write(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := result.Read(&buf)
			if err != nil {
				t.Fatalf("result.Read of the merged document: %v", err)
			}
			if back.Runs[0].Latency != want || back.Command != "dbmeter null --duration 10s --workers 4" {
				t.Errorf("read back latency %+v, command %q", back.Runs[0].Latency, back.Command)
			}
		})
	}
}

func TestMergeRefusesWhatIsNotOneTest(t *testing.T) {
	t.Parallel()
	vs := values(3, 100)
	sh := func(i, n int) *document { return shardSpec{index: i, count: n, latency: vs}.build() }
	foreign := shardSpec{index: 1, count: 3, latency: vs, command: "dbmeter null --duration 20s --workers 4 --shard 1/3 --json s1.json"}.build()
	unsharded := sh(0, 2)
	unsharded.Runs[0].Shard = nil
	for _, tc := range []struct {
		name string
		docs []*document
		want string
	}{
		{"missing shard", []*document{sh(0, 4), sh(1, 4), sh(3, 4)}, "shard 2 of 4 missing (s0.json is 0, s1.json is 1, s2.json is 3)"},
		{"two missing", []*document{sh(1, 4), sh(3, 4)}, "shard 0, 2 of 4 missing"},
		{"duplicate index", []*document{sh(0, 3), sh(1, 3), sh(1, 3), sh(2, 3)}, "s2.json: shard 1 of 3 is already given by s1.json"},
		{"foreign command", []*document{sh(0, 3), foreign, sh(2, 3)}, `s1.json: not a shard of the same test as s0.json: its command "dbmeter null --duration 20s --workers 4" differs from "dbmeter null --duration 10s --workers 4"`},
		{"other shard count", []*document{sh(0, 2), sh(1, 3)}, "s1.json: shard 1 of 3, but s0.json is a shard of 2"},
		{"not sharded", []*document{unsharded, sh(1, 2)}, "s0.json: not part of a sharded benchmark"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Merge(context.Background(), inputs(t, tc.docs...))
			if err == nil {
				t.Fatalf("merged; want an error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q\nwant one line containing %q", err, tc.want)
			}
		})
	}
}

func TestMergeWarnsAboutSkew(t *testing.T) {
	t.Parallel()
	vs := values(4, 100)
	for _, tc := range []struct {
		offset time.Duration
		warn   bool
	}{{50 * time.Millisecond, false}, {99 * time.Millisecond, false}, {101 * time.Millisecond, true}, {2 * time.Second, true}} {
		docs := []*document{
			shardSpec{index: 0, count: 2, latency: vs, intervals: []int64{50, 50}}.build(),
			shardSpec{index: 1, count: 2, latency: vs, intervals: []int64{50, 50}, offset: tc.offset}.build(),
		}
		m, err := Merge(context.Background(), inputs(t, docs...))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(strings.Join(m.Warnings, "\n"), "shards started "+tc.offset.String()+" apart")
		if got != tc.warn {
			t.Errorf("skew %s: warned %v, want %v (warnings %q)", tc.offset, got, tc.warn, m.Warnings)
		}
	}
}

func TestThroughputOverTheCommonWindow(t *testing.T) {
	t.Parallel()
	vs := values(5, 1000)
	// Shard 0 ran 10 s at 100 ops/s; shard 1 started 2 s late and ran 10 s
	// at 50 ops/s. Both measured from 2 s to 10 s: 8 s, in which shard 0 did
	// 800 ops and shard 1 400.
	even := func(n, per int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = per
		}
		return out
	}
	docs := []*document{
		shardSpec{index: 0, count: 2, latency: vs, intervals: even(10, 100)}.build(),
		shardSpec{index: 1, count: 2, latency: vs[:500], intervals: even(10, 50), offset: 2 * time.Second}.build(),
	}
	m, err := Merge(context.Background(), inputs(t, docs...))
	if err != nil {
		t.Fatal(err)
	}
	r := m.doc.Runs[0]
	if want := (800.0 + 400) / 8; math.Abs(r.OpsPerS-want) > 1e-9 || r.DurationS != 8 {
		t.Errorf("throughput %f over %f s, want %f over 8 s", r.OpsPerS, r.DurationS, want)
	}
}

func TestMergeExtra(t *testing.T) {
	t.Parallel()
	decl := map[string]result.Figure{
		"select_ops": result.Sum("ops"), "select_latency_ns_mean": result.Mean("ns", "select_ops"),
		"select_latency_ns_stddev": result.Stddev("ns", "select_latency_ns_mean"),
		"reconnects":               result.Sum("reconnects"), "keys_s": result.Sum("keys/s"), "latency_max_ns": result.Max("ns"),
		"latency_min_ns": result.Min("ns"), "service_p99_ns": result.Equal("ns"), "clock_cost_ns": result.Equal("ns"),
	}
	a := &run{Run: result.Run{Extra: map[string]float64{
		"select_ops": 100, "select_latency_ns_mean": 10, "select_latency_ns_stddev": 0,
		"reconnects": 1, "keys_s": 1000, "latency_max_ns": 5, "latency_min_ns": 5, "service_p99_ns": 7, "clock_cost_ns": 20, "mystery": 1,
	}, Figures: decl}}
	a.Ops = 100
	b := &run{Run: result.Run{Extra: map[string]float64{
		"select_ops": 300, "select_latency_ns_mean": 20, "select_latency_ns_stddev": 0,
		"reconnects": 2, "keys_s": 3000, "latency_max_ns": 9, "latency_min_ns": 9, "service_p99_ns": 8, "clock_cost_ns": 20, "mystery": 2,
	}, Figures: decl}}
	b.Ops = 300
	got, figs, warns := mergeExtra([]*run{a, b})
	want := map[string]float64{
		"select_ops": 400, "select_latency_ns_mean": 17.5, "select_latency_ns_stddev": math.Sqrt(0.25*100 + 0.75*400 - 17.5*17.5),
		"reconnects": 3, "keys_s": 4000, "latency_max_ns": 9, "latency_min_ns": 5, "clock_cost_ns": 20,
	}
	for k, v := range want {
		if math.Abs(got[k]-v) > 1e-9 {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
		if figs[k] != decl[k] {
			t.Errorf("%s: merged declaration %+v, want %+v", k, figs[k], decl[k])
		}
	}
	_, p99 := got["service_p99_ns"]
	_, mystery := got["mystery"]
	if p99 || mystery || len(warns) != 2 || !strings.Contains(warns[0], "mystery have no merge rule") || !strings.Contains(warns[1], "mystery, service_p99_ns") {
		t.Errorf("a percentile and an undeclared figure that differ: got %v, warnings %q", got, warns)
	}
}

// TestMergeFamilyFigures: what each family writes merges by its declared
// rule, with no warning, in a merge of two shards read from their JSON.
// Six of them were once dropped because their names fit no rule.
func TestMergeFamilyFigures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		family string
		decl   result.Declarations
		name   string
		a, b   float64 // shard 0 has 100 operations, shard 1 300, rows twice that
		want   float64
	}{
		{"pg", bench.FigureDeclarations(), "retries", 3, 4, 7},
		{"pg", bench.FigureDeclarations(), "deadlock_failures", 1, 0, 1},
		{"pg", bench.FigureDeclarations(), "command_0_1_latency_ns_mean", 10, 20, 17.5},
		{"ch insert", insert.FigureDeclarations(), "rows_unverified", 0, 1, 1},
		{"ch insert", insert.FigureDeclarations(), "client_cpu_us_per_row", 2, 4, 3.5},
		{"ch query", query.FigureDeclarations(), "pool_waits", 5, 6, 11},
		{"ch query", query.FigureDeclarations(), "pool_wait_ns_total", 500, 600, 1100},
		{"ch query", query.FigureDeclarations(), "rows_per_query", 1000, 2000, 1750},
		{"kv", kv.FigureDeclarations(), "ns_per_key", 10, 20, 17.5},
		{"null", null.FigureDeclarations(), "overhead_ns_per_op", 40, 48, 46},
	} {
		extra := func(v float64) map[string]float64 {
			x := map[string]float64{tc.name: v}
			if tc.name == "command_0_1_latency_ns_mean" { // weighted by its executions
				x["command_0_1_count"] = map[float64]float64{10: 100, 20: 300}[v]
			}
			return x
		}
		docs := []*document{
			shardSpec{index: 0, count: 2, latency: values(1, 100), extra: extra(tc.a), figures: tc.decl}.build(),
			shardSpec{index: 1, count: 2, latency: values(2, 300), extra: extra(tc.b), figures: tc.decl}.build(),
		}
		m, err := Merge(context.Background(), inputs(t, docs...))
		if err != nil {
			t.Fatalf("%s %s: %v", tc.family, tc.name, err)
		}
		r := m.doc.Runs[0]
		if got, ok := r.Extra[tc.name]; !ok || math.Abs(got-tc.want) > 1e-9 || len(m.Warnings) > 0 {
			t.Errorf("%s %s: merged %v (present %v), want %v; warnings %q", tc.family, tc.name, got, ok, tc.want, m.Warnings)
		}
	}
}

func TestRunsMatchByKeyThenPosition(t *testing.T) {
	t.Parallel()
	vs := values(6, 100)
	two := func(i int, workloads ...string) *document {
		d := shardSpec{index: i, count: 2, latency: vs}.build()
		r := d.Runs[0]
		d.Runs = nil
		for _, w := range workloads {
			r := r
			r.Params = map[string]string{"duration": "10s", "block": w}
			r.Workload = w
			d.Runs = append(d.Runs, r)
		}
		return d
	}
	// By key: the order within a shard does not matter.
	m, err := Merge(context.Background(), inputs(t, two(0, "get", "set"), two(1, "set", "get")))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.doc.Runs {
		if r.Ops != 200 {
			t.Errorf("%s: %d ops, want 200", r.Workload, r.Ops)
		}
	}
	// A param that differs between shards (here one set at run time) makes
	// keys differ: runs then match by position.
	a, b := two(0, "get", "set"), two(1, "get", "set")
	b.Runs[0].Params["block"], b.Runs[1].Params["block"] = "9", "8"
	if m, err = Merge(context.Background(), inputs(t, a, b)); err != nil || len(m.doc.Runs) != 2 || m.doc.Runs[1].Ops != 200 {
		t.Errorf("positional fallback: %v", err)
	}
	b = two(1, "set", "get")
	b.Runs[0].Params["block"] = "9"
	if _, err = Merge(context.Background(), inputs(t, a, b)); err == nil || !strings.Contains(err.Error(), "s1.json: run 1 is null/null/set #0, but in s0.json it is null/null/get #0") {
		t.Errorf("runs that match neither way: err %v", err)
	}
}

// TestMergeClosedLoop: a closed-loop run's service time is its latency and
// carries no histogram of its own; the merge's is the merged latency, with
// no warning.
func TestMergeClosedLoop(t *testing.T) {
	t.Parallel()
	lat := [][]int64{{100, 200, 300}, {400, 500}}
	m, err := Merge(context.Background(), inputs(t,
		shardSpec{index: 0, count: 2, latency: lat[0]}.build(),
		shardSpec{index: 1, count: 2, latency: lat[1]}.build()))
	if err != nil {
		t.Fatal(err)
	}
	r := m.doc.Runs[0]
	if r.Mode != "closed" || r.Service != r.Latency || r.Latency.Max == 0 || len(m.Warnings) > 0 {
		t.Errorf("mode %s, service %+v, latency %+v, warnings %q; want service = latency, no warning", r.Mode, r.Service, r.Latency, m.Warnings)
	}
}

// TestMergeRunKnowsEveryField: mergeRun builds the merged run field by
// field, each by what it means for the whole test. A field added to
// result.Run fails this test until it is merged there and listed here,
// rather than being copied from shard 0 unnoticed.
func TestMergeRunKnowsEveryField(t *testing.T) {
	t.Parallel()
	merged := map[string]string{
		"Family": "same in every shard", "Target": "same", "Workload": "same", "Mode": "same",
		"Repeat": "same", "Seed": "shard 0's (shards draw their own streams from it)", "Step": "same", "Verdict": "same",
		"Server": "shard 0's, a warning where shards differ", "Params": "shard 0's without shard",
		"Shard":   "none: the merged run is the whole test",
		"Workers": "sum", "Rate": "sum", "Ops": "sum", "Errors": "sum", "ErrorKinds": "sum by kind", "Dropped": "sum",
		"Rows": "sum", "Bytes": "sum",
		"DurationS": "the common window", "OpsPerS": "over the common window", "RowsPerS": "over the common window", "BytesPerS": "over the common window",
		"Latency": "histograms added", "LatencyHDR": "histograms added", "Service": "histograms added", "ServiceHDR": "histograms added",
		"Lag": "histograms added", "LagHDR": "histograms added", "Phases": "histograms added per phase",
		"Intervals": "slot by slot", "Client": "summed, per-op figures recomputed",
		"Extra": "by each figure's declaration", "Figures": "the declarations kept",
		"ServerStats": "statements, database deltas and wait-event samples added",
		"External":    "shard 0's client, the slowest shard's round trip, the samples summed",
		"Warnings":    "every shard's, named", "ErrorSamples": "the first shard's per kind, named", "Interrupted": "any shard's",
	}
	seen := map[string]bool{}
	var walk func(reflect.Type)
	walk = func(rt reflect.Type) {
		for i := range rt.NumField() {
			f := rt.Field(i)
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			seen[f.Name] = true
			if _, ok := merged[f.Name]; !ok {
				t.Errorf("result.Run.%s is new: merge it in mergeRun and say how here", f.Name)
			}
		}
	}
	walk(reflect.TypeOf(result.Run{}))
	for name := range merged {
		if !seen[name] {
			t.Errorf("%s is listed but result.Run has no such field", name)
		}
	}
}

// TestMergeServerStats: the shards' server figures add exactly: a
// statement's calls and time, its mean and standard deviation as those of
// the union of its executions, the database deltas, and the wait-event
// samples with their shares.
func TestMergeServerStats(t *testing.T) {
	t.Parallel()
	stmt := func(exec ...float64) result.Statement {
		s := result.Statement{QueryID: "42", Query: "SELECT 1", Calls: int64(len(exec)), Rows: int64(len(exec))}
		for _, v := range exec {
			s.TotalNs += v
			s.SumSqNs2 += v * v
		}
		s.SetMoments()
		return s
	}
	a, b := []float64{10, 20, 30}, []float64{40, 50}
	docs := []*document{
		shardSpec{index: 0, count: 2, latency: values(1, 3)}.build(),
		shardSpec{index: 1, count: 2, latency: values(2, 2)}.build(),
	}
	docs[0].Runs[0].ServerStats = &result.ServerStats{Statements: []result.Statement{stmt(a...)}, Database: map[string]float64{"xact_commit": 3},
		WaitEvents: &result.WaitEvents{IntervalNs: 1e8, Samples: 4, Events: map[string]int64{"CPU": 1, "Client:ClientRead": 3}}}
	docs[1].Runs[0].ServerStats = &result.ServerStats{Statements: []result.Statement{stmt(b...)}, Database: map[string]float64{"xact_commit": 2},
		WaitEvents: &result.WaitEvents{IntervalNs: 1e8, Samples: 4, Events: map[string]int64{"CPU": 3, "IO:DataFileRead": 1}}}
	m, err := Merge(context.Background(), inputs(t, docs...))
	if err != nil {
		t.Fatal(err)
	}
	got := m.doc.Runs[0].ServerStats
	want := stmt(append(a, b...)...)
	if len(got.Statements) != 1 || math.Abs(got.Statements[0].MeanNs-want.MeanNs) > 1e-9 || math.Abs(got.Statements[0].StddevNs-want.StddevNs) > 1e-9 || got.Statements[0].Calls != 5 {
		t.Errorf("statements %+v, want %+v", got.Statements, want)
	}
	if got.Database["xact_commit"] != 5 || got.WaitEvents.Samples != 8 || got.WaitEvents.Shares["CPU"] != 0.5 || got.WaitEvents.Shares["IO:DataFileRead"] != 0.125 {
		t.Errorf("database %v, wait events %+v", got.Database, got.WaitEvents)
	}
	// Shard 1 failed one transaction: 6 ran, and the server spent time on each.
	if r := m.doc.Runs[0]; r.Ops+r.Errors != 6 || math.Abs(got.ServerNsPerOp-want.TotalNs/6) > 1e-9 {
		t.Errorf("server time per transaction %v over %d transactions, want %v over 6", got.ServerNsPerOp, r.Ops+r.Errors, want.TotalNs/6)
	}
}

// TestMergeClickHouseServerStats: ClickHouse's per-query histograms add
// exactly (the merged percentiles are those of all the shards' queries
// together), the query-log sums add, and system.events, which each shard
// read for the whole server, is not counted twice.
func TestMergeClickHouseServerStats(t *testing.T) {
	t.Parallel()
	phase := func(vs ...int64) *result.Phase {
		h := hist.New()
		var total int64
		for _, v := range vs {
			h.RecordValue(v)
			total += v
		}
		p := result.PhaseOf(h, total)
		return &p
	}
	ms := int64(time.Millisecond)
	docs := []*document{
		shardSpec{index: 0, count: 2, latency: values(1, 3)}.build(),
		shardSpec{index: 1, count: 2, latency: values(2, 2)}.build(),
	}
	docs[0].Runs[0].ServerStats = &result.ServerStats{LatencyNs: phase(1*ms, 1*ms, 1*ms), ClientSideNs: phase(ms/2, ms/2, ms/2), ResolutionNs: ms,
		ReadRows: 30, MemoryMaxBytes: 7, ProfileEvents: map[string]int64{"RealTimeMicroseconds": 3000}, Events: map[string]int64{"Query": 10}}
	docs[1].Runs[0].ServerStats = &result.ServerStats{LatencyNs: phase(9*ms, 9*ms), ClientSideNs: phase(ms, ms), ResolutionNs: ms,
		ReadRows: 20, MemoryMaxBytes: 5, ProfileEvents: map[string]int64{"RealTimeMicroseconds": 18000}, Events: map[string]int64{"Query": 12}}
	m, err := Merge(context.Background(), inputs(t, docs...))
	if err != nil {
		t.Fatal(err)
	}
	got := m.doc.Runs[0].ServerStats
	want := phase(1*ms, 1*ms, 1*ms, 9*ms, 9*ms)
	if l := got.LatencyNs; l == nil || l.Count != 5 || l.Latency != want.Latency || l.TotalNs != want.TotalNs {
		t.Errorf("server latency %+v, want %+v", l, want)
	}
	if c := got.ClientSideNs; c == nil || c.Count != 5 || c.P99 != phase(ms/2, ms, ms).P99 || c.P50 != phase(ms/2).P50 {
		t.Errorf("client side %+v", c)
	}
	if got.ServerNsPerOp != float64(want.TotalNs)/5 || got.ResolutionNs != ms {
		t.Errorf("server time per query %v, resolution %d", got.ServerNsPerOp, got.ResolutionNs)
	}
	if got.ReadRows != 50 || got.MemoryMaxBytes != 7 || got.ProfileEvents["RealTimeMicroseconds"] != 21000 || got.Events["Query"] != 12 {
		t.Errorf("read rows %d, memory max %d, profile events %v, events %v", got.ReadRows, got.MemoryMaxBytes, got.ProfileEvents, got.Events)
	}
}

// An external client's round trip was timed by each shard on its own
// workers: percentiles cannot be added, so the merged run keeps the slowest
// shard's p50 and p99, and counts every exchange; the workers started and
// failed are the shards' sums.
func TestMergeExternalRoundTrip(t *testing.T) {
	t.Parallel()
	docs := []*document{
		shardSpec{index: 0, count: 2, latency: []int64{100, 200}, extra: map[string]float64{"workers_started": 2, "worker_failures": 0}, figures: extworker.FigureDeclarations()}.build(),
		shardSpec{index: 1, count: 2, latency: []int64{300}, extra: map[string]float64{"workers_started": 3, "worker_failures": 1}, figures: extworker.FigureDeclarations()}.build(),
	}
	for i, rtt := range []result.RTT{{P50: 9000, P99: 40000, N: 500}, {P50: 12000, P99: 30000, N: 500}} {
		docs[i].Runs[0].External = &result.ExternalClient{Command: "php seasclick.php", Language: "php", Runtime: "8.2.36", Library: "SeasClick 0.1.1", RTT: rtt}
	}
	m, err := Merge(context.Background(), inputs(t, docs...))
	if err != nil {
		t.Fatal(err)
	}
	got := m.doc.Runs[0].External
	want := result.ExternalClient{Command: "php seasclick.php", Language: "php", Runtime: "8.2.36", Library: "SeasClick 0.1.1", RTT: result.RTT{P50: 12000, P99: 40000, N: 1000}}
	if got == nil || *got != want {
		t.Errorf("merged external client %+v, want %+v", got, want)
	}
	if x := m.doc.Runs[0].Extra; x["workers_started"] != 5 || x["worker_failures"] != 1 || len(m.Warnings) > 0 {
		t.Errorf("workers started %v, failures %v, warnings %q; want the shards' sums, 5 and 1, and no warning", x["workers_started"], x["worker_failures"], m.Warnings)
	}
}
