package report

import (
	"bytes"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
)

func kvRun(engine, op, fsync string, opsPerS float64, p50 int64) result.Run {
	r := result.Run{Family: "kv", Target: engine, Workload: op, Repeat: 1,
		Params: map[string]string{"fsync": fsync, "workers": "2", "preloaded_keys": "20000", "key_size": "9", "value_size": "256", "duration": "500ms", "count": "0"}}
	r.OpsPerS, r.DurationS, r.Ops = opsPerS, 0.5, int64(opsPerS/2)
	r.Latency = result.Latency{P50: p50, P99: 2 * p50, Mean: 1.5 * float64(p50)}
	if op == "batchset" {
		r.RowsPerS, r.Rows = 100*opsPerS, 100*r.Ops
		r.Extra = map[string]float64{"ns_per_key": 1.5 * float64(p50) / 100}
	}
	return r
}

// kvTables renders kv runs as the terminal report does, on a disk.
func kvTables(disk result.Disk) func(io.Writer, []result.Run) error {
	return func(w io.Writer, runs []result.Run) error {
		doc := &result.Document{Runs: runs}
		doc.Env.Disk = disk
		return Text(w, doc)
	}
}

// The kv layout is the seed's: per fsync mode a throughput table and a
// latency table, operations as rows in run order, engines as columns.
func TestKVTables(t *testing.T) {
	runs := []result.Run{
		kvRun("pebble", "set", "false", 400000, 1600),
		kvRun("pebble", "get", "false", 70000, 15000),
		kvRun("map", "get", "false", 2000000, 500),
		kvRun("map", "set", "false", 300000, 1700),
		kvRun("map", "batchset", "false", 3000, 100000),
		kvRun("map", "set", "true", 1800, 115000),
	}
	runs[3].Errors = 2
	var buf bytes.Buffer
	if err := kvTables(result.Disk{})(&buf, runs); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"kv fsync off: throughput\n2 workers  ·  20,000 keys preloaded in every cell's store  ·  key 9B value 256B  ·  500ms per cell",
		"ops/s                  pebble        map",
		"set                   400,000   300,000!",
		"get                    70,000  2,000,000",
		"±: the 95% confidence interval of the throughput, from its progress intervals",
		"!: the cell had errors",
		"batchset (batches/s)        -      3,000",
		"batchset (keys/s)           -    300,000",
		"get p50                15.0µs    500ns",
		"batchset mean per key       -   1.50µs",
		"kv fsync on: throughput\nevery write durable before it is acknowledged  ·  2 workers",
		"set p50    115µs",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("kv tables lack %q; got:\n%s", want, out)
		}
	}
	if strings.Index(out, "\nset ") > strings.Index(out, "\nget ") {
		t.Errorf("set must come before get:\n%s", out)
	}
}

// reps makes a cell's repetitions with the given ops/s.
func reps(opsPerS ...float64) []result.Run {
	var out []result.Run
	for i, v := range opsPerS {
		r := kvRun("pebble", "get", "false", v, 1000)
		r.Repeat = i + 1
		out = append(out, r)
	}
	return out
}

// withIntervals gives a run intervals of 100 ms with these ops each, and a
// short tail of tail ops in 5 ms.
func withIntervals(r result.Run, tail int64, ops ...int64) result.Run {
	ts := 0.0
	for _, n := range ops {
		ts += 0.1
		r.Intervals = append(r.Intervals, result.Interval{TS: ts, Ops: n})
	}
	r.Intervals = append(r.Intervals, result.Interval{TS: ts + 0.005, Ops: tail})
	return r
}

// A cell's spread is the 95 % confidence interval of its throughput, from
// its repetitions' ops/s, or from the whole intervals of a single one;
// past 25 % it is flagged. More repetitions that agree narrow it.
func TestKVSpread(t *testing.T) {
	tests := []struct {
		name    string
		reps    []result.Run
		want    string // the cell as the tables print it
		flagged bool
	}{
		{"three steady repetitions", reps(100000, 104000, 98000), "100,667 ±8%", false},
		{"nine steady repetitions", reps(98000, 101000, 100000, 99000, 102000, 100000, 100000, 101000, 99000), "100,000 ±1%", false},
		{"one repetition far off", reps(100000, 60000, 104000), "88,000 ±69%*", true},
		{"two repetitions 40% apart: too few to say", reps(100000, 140000), "120,000 ±212%*", true},
		{"one run, steady intervals, the tail left out", []result.Run{withIntervals(kvRun("map", "get", "false", 100000, 500), 3, 10000, 10500, 9800, 10000)}, "100,000 ±5%", false},
		{"one run, an interval stalled", []result.Run{withIntervals(kvRun("map", "get", "false", 100000, 500), 0, 10000, 10000, 3000, 10000)}, "100,000 ±56%*", true},
		{"one run without intervals: nothing to compare", []result.Run{kvRun("map", "get", "false", 100000, 500)}, "100,000", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mk marks
			got := throughputCell(pooledRun(tt.reps).OpsPerS, tt.reps, Count, &mk)
			if flagged := mk.spread; got != tt.want || flagged != tt.flagged {
				t.Errorf("cell = %q, flagged %v; want %q, %v", got, flagged, tt.want, tt.flagged)
			}
		})
	}
}

// A flagged cell carries a "*" in the text, Markdown and HTML tables, and
// the table a one-line hint; a table with none has no hint.
func TestKVSpreadFlagged(t *testing.T) {
	steady := reps(100000, 104000, 98000)
	shaky := reps(100000, 60000, 104000)
	for i := range shaky {
		shaky[i].Target = "bbolt"
	}
	hint := "* above 25%: not a stable figure"
	for _, tt := range []struct {
		name string
		runs []result.Run
		want bool
	}{
		{"steady", steady, false},
		{"shaky", append(slices.Clone(steady), shaky...), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var text bytes.Buffer
			if err := kvTables(result.Disk{})(&text, tt.runs); err != nil {
				t.Fatal(err)
			}
			var md bytes.Buffer
			doc := &result.Document{Runs: tt.runs}
			if err := Markdown(&md, []Source{{Name: "kv.json", Doc: doc}}); err != nil {
				t.Fatal(err)
			}
			var html bytes.Buffer
			if err := renderHTML(&html, []Source{{Name: "kv.json", Doc: doc}}, ""); err != nil {
				t.Fatal(err)
			}
			for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": html.String()} {
				if got := strings.Contains(out, hint); got != tt.want {
					t.Errorf("%s: hint shown %v, want %v:\n%s", name, got, tt.want, out)
				}
				if got := strings.Contains(out, "88,000 ±69%*"); got != tt.want {
					t.Errorf("%s: flagged cell shown %v, want %v:\n%s", name, got, tt.want, out)
				}
				if !strings.Contains(out, "100,667 ±8%") {
					t.Errorf("%s: the steady cell lacks its spread:\n%s", name, out)
				}
			}
		})
	}
}

// With repetitions, every kv output (tables and bars) shows the cell's repetitions pooled,
// as one long run: throughput is all their operations over all their time
// and the latencies come from their histograms added together, so every
// figure covers the same operations. The median of each figure would give
// 2,000,000 ops/s and a p99 of 800ns here, from different repetitions.
func TestKVRepetitionsPooled(t *testing.T) {
	rep := func(n int, ops int64, latency int64) result.Run {
		r := kvRun("map", "get", "false", float64(ops)/0.5, latency)
		r.Repeat = n
		h := hist.New()
		if err := h.RecordValues(latency, ops); err != nil {
			t.Fatal(err)
		}
		enc, err := result.EncodeHDR(h)
		if err != nil {
			t.Fatal(err)
		}
		r.Latency, r.LatencyHDR = result.LatencyOf(h), enc
		return r
	}
	runs := []result.Run{rep(1, 500_000, 1000), rep(2, 1_200_000, 500), rep(3, 1_000_000, 800)}
	var text, md bytes.Buffer
	if err := kvTables(result.Disk{})(&text, runs); err != nil {
		t.Fatal(err)
	}
	doc := &result.Document{Runs: runs}
	if err := Markdown(&md, []Source{{Name: "r.json", Doc: doc}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1,800,000 ±100%*", "get p50     800ns", "get p99    1.00µs", "3 repetitions of 500ms, pooled"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("terminal lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{"| get | 1,800,000 ±100%* |", "| get p50 | 800ns |", "| get p99 | 1.00µs |", "3 repetitions of 500ms, pooled"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	var html bytes.Buffer
	if err := renderHTML(&html, []Source{{Name: "r.json", Doc: doc}}, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), `"data":[1800000]`) {
		t.Errorf("the HTML throughput bar is not the pooled figure 1800000:\n%s", html.String())
	}
}

// The kv charts: batches/s on a chart of their own (beside ops/s on one
// axis their bars would not show), over-time charts for a short cell with
// intervals, and legends that list every name, given room to wrap.
func TestKVCharts(t *testing.T) {
	engines := []string{"badger", "bbolt", "bolt", "goleveldb", "pebble", "rocksdb", "buntdb", "btree", "btree:memory", "map", "map:memory"}
	chartsOf := func(engines []string) map[string]Chart {
		var runs []result.Run
		for _, e := range engines {
			for _, op := range []string{"set", "get", "batchset"} {
				r := kvRun(e, op, "false", 1e6, 1000)
				if op == "batchset" {
					r.OpsPerS = 3000
				}
				// A 300 ms cell with a snapshot every 30 ms.
				r = withIntervals(r, 1, 30000, 30000, 30000, 30000, 30000, 30000, 30000, 30000, 30000, 30000)
				runs = append(runs, r)
			}
		}
		cs, err := Charts([]Source{{Name: "kv.json", Doc: &result.Document{Runs: runs}}})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]Chart{}
		for _, c := range cs {
			out[c.Title] = c
		}
		return out
	}
	xOps := func(c Chart) []string { return c.Option["xAxis"].(map[string]any)["data"].([]string) }

	all := chartsOf(engines)
	ops, ok := all["kv: throughput (ops/s)"]
	if !ok {
		t.Fatalf("no ops/s chart; charts: %v", slices.Collect(maps.Keys(all)))
	}
	if got := xOps(ops); !slices.Equal(got, []string{"set", "get"}) {
		t.Errorf("ops/s chart shows %v, want set and get without batchset", got)
	}
	batches, ok := all["kv batchset: throughput (batches/s)"]
	if !ok || !slices.Equal(xOps(batches), []string{"batchset"}) {
		t.Errorf("no batches/s chart of batchset alone: %v", batches.Option)
	}
	for _, w := range []string{"set", "get", "batchset"} {
		if _, ok := all["kv "+w+": throughput over time (▲ failed operations)"]; !ok {
			t.Errorf("no over-time chart for the 300 ms %s cells", w)
		}
	}
	two := chartsOf(engines[:2])
	for title, c := range all {
		legend := c.Option["legend"].(map[string]any)
		if legend["type"] != "plain" {
			t.Errorf("%s: legend %v pages its names", title, legend["type"])
		}
		if names := seriesNames(c.Option["series"].([]any)); len(names) < len(engines) {
			t.Errorf("%s: legend of %d names, want every engine's", title, len(names))
		}
		if c.Height <= two[title].Height {
			t.Errorf("%s: %d px with 11 engines' names, %d with 2: no room made for the legend's rows", title, c.Height, two[title].Height)
		}
	}
}
