package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A Chart is one ECharts chart of the HTML report: its option object as
// ECharts takes it, plus the formats of its axes, which the page turns into
// formatter functions (JSON cannot carry functions).
type Chart struct {
	ID     string         `json:"id"`
	Title  string         `json:"title"`
	Option map[string]any `json:"option"`
	// X and Y name the axis formats: "ns" (a latency in nanoseconds),
	// "pct" (1/(1-q) shown as a percentile), "count", "" (as is).
	X string `json:"x"`
	Y string `json:"y"`
	// Height is the chart's height in pixels: room for a legend that
	// shows every series name.
	Height int `json:"-"`
}

// palette gives each series label the same colour in every chart.
var palette = []string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc", "#2f4554", "#c23531", "#61a0a8"}

type colors map[string]string

func (c colors) of(label string) string {
	if col, ok := c[label]; ok {
		return col
	}
	col := palette[len(c)%len(palette)]
	c[label] = col
	return col
}

// Charts builds the report's charts over every source, so runs of several
// files overlay: per family, throughput bars per target × operation,
// percentile curves per workload, and throughput and p99 over time.
func Charts(srcs []Source) ([]Chart, error) {
	es := entriesOf(srcs)
	l := newLabeler(srcs, es)
	// How an engine switches fsync follows from the fsync mode: naming it
	// in every series only lengthens the legend.
	l.split = slices.DeleteFunc(slices.Clone(l.split), func(k string) bool { return k == result.SettingFsyncSwitch })
	col := colors{}
	var out []Chart
	// A capacity search's steps ran at different rates on purpose: pooled
	// into one bar or one curve they mean nothing, so they are drawn step by
	// step (kneeCharts) and left out of the family's charts.
	runs, _ := splitEntries(es, func(e entry) bool { return e.run.Verdict == nil })
	for _, family := range ordered(runs, func(e entry) string { return e.run.Family }) {
		var fam []entry
		for _, e := range runs {
			if e.run.Family == family {
				fam = append(fam, e)
			}
		}
		id := func(kind string) string { return fmt.Sprintf("chart-%d", len(out)+1) + "-" + kind }
		// A batch is not an operation of the others' size: batches/s get
		// a chart of their own, or their bars vanish beside millions of
		// ops/s.
		ops, batches := fam, []entry(nil)
		if family == "kv" {
			ops, batches = splitEntries(fam, func(e entry) bool { return e.run.Workload != "batchset" })
		}
		// kv's tables give each throughput its ±: its bars carry it.
		spread := family == "kv"
		if len(ops) > 0 {
			unit := "ops/s"
			if !slices.ContainsFunc(ops, func(e entry) bool { return e.run.Workload != "insert" }) {
				unit = "batches/s" // ch insert: an operation is one block of rows
			}
			out = append(out, throughputBars(id("throughput"), family, unit, l, col, ops, opsPerS, spread))
		}
		if len(batches) > 0 {
			out = append(out, throughputBars(id("batches"), family+" batchset", "batches/s", l, col, batches, opsPerS, spread))
		}
		if rows, _ := splitEntries(fam, func(e entry) bool { return e.run.RowsPerS > 0 }); hasRows(rows) {
			unit := "rows/s"
			if family == "kv" {
				unit = "keys/s"
			}
			out = append(out, throughputBars(id("rows"), family, unit, l, col, rows, func(r *result.Run) float64 { return r.RowsPerS }, false))
		}
		for _, w := range ordered(fam, func(e entry) string { return e.run.Workload }) {
			var wl []entry
			for _, e := range fam {
				if e.run.Workload == w {
					wl = append(wl, e)
				}
			}
			c, err := percentileCurves(id("percentiles"), family+" "+w, l, col, wl)
			if err != nil {
				return nil, err
			}
			if c != nil {
				out = append(out, *c)
			}
			if hasIntervals(wl) {
				what := family + " " + w
				out = append(out, overTime(id("ops-time"), what, l, col, wl, false), overTime(id("p99-time"), what, l, col, wl, true))
			}
		}
	}
	if c := waitEventsChart(fmt.Sprintf("chart-%d-waits", len(out)+1), l, col, runs); c != nil {
		out = append(out, *c)
	}
	out = append(out, kneeCharts(srcs, col, func(kind string) string { return fmt.Sprintf("chart-%d-%s", len(out)+1, kind) })...)
	return out, nil
}

func opsPerS(r *result.Run) float64 { return r.OpsPerS }

// hasRows says whether a rows/s chart would say more than the ops/s one:
// pg counts a transaction as a row.
func hasRows(es []entry) bool {
	for _, e := range es {
		if e.run.RowsPerS > 0 && e.run.RowsPerS != e.run.OpsPerS {
			return true
		}
	}
	return false
}

// splitEntries returns the entries keep holds for, and the others.
func splitEntries(es []entry, keep func(entry) bool) (kept, rest []entry) {
	for _, e := range es {
		if keep(e) {
			kept = append(kept, e)
		} else {
			rest = append(rest, e)
		}
	}
	return kept, rest
}

// hasIntervals says whether a run has enough intervals to draw a line.
func hasIntervals(es []entry) bool {
	for _, e := range es {
		if len(e.run.Intervals) > 1 {
			return true
		}
	}
	return false
}

func base(title string) map[string]any {
	return map[string]any{
		"animation": false,
		"title":     map[string]any{"text": title, "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"legend":    map[string]any{"top": 26, "left": "center", "type": "plain"},
		"grid":      map[string]any{"left": 80, "right": 40, "top": 60, "bottom": 56},
		"toolbox":   map[string]any{"right": 8, "top": 0, "feature": map[string]any{"dataZoom": map[string]any{}, "restore": map[string]any{}}},
	}
}

// Chart sizes: a legend shows every series name, wrapping onto as many
// rows as it needs (ECharts' plain legend), between the title and the
// plot, so it never meets the axis names below; the plot keeps its height
// under it.
const (
	chartPlot      = 300 // pixels of plot, axis labels and axis name
	legendRow      = 24  // pixels per row of legend
	legendRowChars = 64  // characters of names (with their markers) a row holds in a chart 560 px wide
)

// withLegend makes room above the plot for a legend of names.
func withLegend(c Chart, names []string) Chart {
	chars := 0
	for _, n := range names {
		chars += len([]rune(n)) + 6 // the marker and the gap
	}
	rows := max(1, (chars+legendRowChars-1)/legendRowChars)
	top := 36 + legendRow*rows
	c.Option["grid"].(map[string]any)["top"] = top
	// The value axis's name runs along it, left of its labels: above the
	// plot it would sit in the legend's last row.
	if y, ok := c.Option["yAxis"].(map[string]any); ok && y["name"] != nil {
		y["nameLocation"], y["nameGap"], y["nameRotate"] = "middle", 58, 90
	}
	c.Height = chartPlot + top
	return c
}

// seriesNames lists the names of a chart's series.
func seriesNames(series []any) []string {
	var out []string
	for _, s := range series {
		if m, ok := s.(map[string]any); ok {
			if n, ok := m["name"].(string); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// throughputBars: operations along the axis, a bar per target; repetitions
// are pooled (pooledRun), as the tables show them. With spread, each bar
// carries the ± its table shows (relSpread), as an error bar.
func throughputBars(id, family, unit string, l labeler, col colors, es []entry, fig func(*result.Run) float64, spread bool) Chart {
	ops := ordered(es, func(e entry) string { return e.run.Workload })
	targets := ordered(es, l.target)
	var series, bars []any
	for ti, t := range targets {
		data := make([]any, len(ops))
		for i, w := range ops {
			var reps []result.Run
			for _, e := range es {
				if e.run.Workload == w && l.target(e) == t {
					reps = append(reps, *e.run)
				}
			}
			if len(reps) == 0 || kvNotSupported(reps[0]) {
				continue
			}
			pooled := pooledRun(reps)
			v := fig(&pooled)
			data[i] = roundFigure(v)
			if sp, ok := relSpread(v, reps); spread && ok {
				// [category, low, high, this bar's index among the targets, their count]
				// A throughput is never negative, whatever the interval's
				// arithmetic says.
				bars = append(bars, []any{i, roundFigure(max(v*(1-sp), 0)), roundFigure(v * (1 + sp)), ti, len(targets)})
			}
		}
		series = append(series, map[string]any{"name": t, "type": "bar", "data": data, "color": col.of(t),
			"barGap": "30%", "barCategoryGap": "20%"})
	}
	names := seriesNames(series)
	if len(bars) > 0 {
		// Drawn by the page (its renderItem is a function, which JSON
		// cannot carry): a whisker per bar at the bar's own offset.
		series = append(series, map[string]any{"name": "±95% interval", "type": "custom", "errorbar": true, "data": bars,
			"color": "#1d2330", "z": 10, "encode": map[string]any{"x": 0, "y": []int{1, 2}}, "tooltip": map[string]any{"show": false}})
		names = append(names, "±95% interval")
	}
	o := base(fmt.Sprintf("%s: throughput (%s)", family, unit))
	o["tooltip"] = map[string]any{"trigger": "axis", "axisPointer": map[string]any{"type": "shadow"}}
	o["xAxis"] = map[string]any{"type": "category", "data": ops}
	o["yAxis"] = map[string]any{"type": "value", "name": unit}
	o["series"] = series
	return withLegend(Chart{ID: id, Title: o["title"].(map[string]any)["text"].(string), Option: o, Y: "count"}, names)
}

// roundFigure keeps three significant digits of a figure for a chart: a
// whole number from 100 up, and 2.47 batches/s, not 2.
func roundFigure(v float64) float64 {
	if math.Abs(v) >= 100 || v == 0 {
		return math.Round(v)
	}
	scale := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*scale) / scale
}

// percentileCurves draws latency against percentile on a log axis of
// 1/(1-q), as HdrHistogram's plotter does, one curve per target with the
// repetitions' histograms merged. Nil when no run has a histogram.
func percentileCurves(id, what string, l labeler, col colors, es []entry) (*Chart, error) {
	var series []any
	for _, t := range ordered(es, l.target) {
		var encoded []string
		for _, e := range es {
			if l.target(e) == t && e.run.LatencyHDR != "" {
				encoded = append(encoded, e.run.LatencyHDR)
			}
		}
		merged, err := addHDRs(encoded)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		if merged == nil || merged.TotalCount() == 0 {
			continue
		}
		series = append(series, map[string]any{
			"name": t, "type": "line", "showSymbol": false, "data": curve(merged), "color": col.of(t),
		})
	}
	if len(series) == 0 {
		return nil, nil
	}
	o := base(what + ": latency by percentile")
	o["tooltip"] = map[string]any{"trigger": "axis"}
	o["xAxis"] = map[string]any{"type": "log", "name": "percentile", "nameLocation": "middle", "nameGap": 28, "min": 1, "logBase": 10}
	o["yAxis"] = map[string]any{"type": "log", "name": "latency", "logBase": 10}
	o["series"] = series
	c := withLegend(Chart{ID: id, Title: what + ": latency by percentile", Option: o, X: "pct", Y: "ns"}, seriesNames(series))
	return &c, nil
}

// curve samples h at ten points per decade of 1/(1-q), up to the last
// percentile the count can resolve, then the maximum.
func curve(h *hdrhistogram.Histogram) [][2]float64 {
	n := float64(h.TotalCount())
	var pts [][2]float64
	for k := 0; ; k++ {
		x := math.Pow(10, float64(k)/10)
		if x >= n {
			break
		}
		pts = append(pts, [2]float64{x, float64(max(h.ValueAtPercentile(100*(1-1/x)), 1))})
	}
	return append(pts, [2]float64{math.Max(n, 1), float64(max(h.Max(), 1))})
}

// overTimePoints is the most points an over-time line has: more, from
// 0.1 s intervals over a long run, draw a band of noise, not a line.
const overTimePoints = 60

// A bucket is one point of an over-time line: the intervals of a target's
// repetitions that ended within one stretch of the measured window.
type bucket struct {
	ops, errors int64
	secs        float64
	p99         int64 // the highest interval p99 in the bucket
}

// overTime plots one workload over the measured window, one line per
// target: throughput, with failed operations marked where they happened,
// or p99. A target's repetitions are pooled, each from its own start, and
// the intervals are merged into at most overTimePoints points.
func overTime(id, what string, l labeler, col colors, es []entry, p99 bool) Chart {
	width := bucketWidth(es)
	var series []any
	for _, t := range ordered(es, l.target) {
		var mine []entry
		for _, e := range es {
			if l.target(e) == t && len(e.run.Intervals) > 0 {
				mine = append(mine, e)
			}
		}
		if len(mine) == 0 {
			continue
		}
		bs := buckets(mine, width)
		var data, errs []any
		for i, b := range bs {
			ts := roundFigure(float64(i+1) * width)
			if b.secs <= 1e-3 { // nothing, or a sliver at the end of a count-bounded run: its rate means nothing
				continue
			}
			rate := math.Round(float64(b.ops+b.errors) / b.secs)
			switch {
			case p99 && b.ops > 0:
				data = append(data, []any{ts, b.p99})
			case !p99:
				data = append(data, []any{ts, rate})
			}
			if !p99 && b.errors > 0 {
				errs = append(errs, []any{ts, rate, b.errors})
			}
		}
		name := t
		if len(mine) > 1 {
			name = fmt.Sprintf("%s (%d repetitions)", t, len(mine))
		}
		series = append(series, map[string]any{"name": name, "type": "line", "showSymbol": len(data) < 30, "data": data, "color": col.of(t)})
		if len(errs) > 0 {
			series = append(series, map[string]any{
				"name": "errors: " + t, "type": "scatter", "data": errs, "color": "#d00000",
				"symbol": "triangle", "symbolSize": 12, "z": 10,
			})
		}
	}
	xname := "seconds into the measured window (a point per " + nanos(width*1e9) + ")"
	o := base(what + ": throughput over time (▲ failed operations)")
	y, yfmt := map[string]any{"type": "value", "name": "ops/s"}, "count"
	if p99 {
		o = base(what + ": p99 latency over time")
		y, yfmt = map[string]any{"type": "log", "name": "p99", "logBase": 10}, "ns"
		xname = "seconds into the measured window (a point per " + nanos(width*1e9) + ": the highest p99 of its intervals)"
	}
	o["tooltip"] = map[string]any{"trigger": "axis"}
	o["xAxis"] = map[string]any{"type": "value", "name": xname, "nameLocation": "middle", "nameGap": 28}
	o["yAxis"] = y
	o["series"] = series
	return withLegend(Chart{ID: id, Title: o["title"].(map[string]any)["text"].(string), Option: o, Y: yfmt}, seriesNames(series))
}

// bucketWidth is the length in seconds of an over-time point: whole
// progress intervals, as few as keep the longest run within
// overTimePoints points.
func bucketWidth(es []entry) float64 {
	var steps []float64
	longest := 0.0
	for _, e := range es {
		prev := 0.0
		for _, iv := range e.run.Intervals {
			steps = append(steps, iv.TS-prev)
			prev = iv.TS
		}
		longest = max(longest, prev)
	}
	step := median(steps)
	if step <= 0 {
		return 1
	}
	n := math.Ceil(longest / step / overTimePoints)
	return max(n, 1) * step
}

// buckets merges runs' intervals into points of width seconds, by the
// time each interval ended.
func buckets(es []entry, width float64) []bucket {
	var bs []bucket
	for _, e := range es {
		prev := 0.0
		for _, iv := range e.run.Intervals {
			i := max(int(math.Ceil(iv.TS/width-1e-9))-1, 0)
			for len(bs) <= i {
				bs = append(bs, bucket{})
			}
			b := &bs[i]
			b.ops += iv.Ops
			b.errors += iv.Errors
			b.secs += iv.TS - prev
			prev = iv.TS
			if iv.Ops > 0 {
				b.p99 = max(b.p99, iv.P99)
			}
		}
	}
	return bs
}
