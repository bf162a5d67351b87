package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/dbmeter/dbmeter/internal/result"
)

// StepLine is one capacity search step as it is judged: the offered rate,
// the latency the objective reads, drops, errors and the verdict.
func StepLine(r result.Run) string {
	v := "pass"
	if !r.Verdict.Pass {
		v = "FAIL: " + r.Verdict.Reason
	}
	kind := "step"
	if r.Verdict.Confirm {
		kind = "confirm"
	}
	l := r.Latency
	return fmt.Sprintf("%-7s %3d  %s/%s  %10s/s  p50 %8s  p99 %8s  (lag %8s)  p99.9 %8s  dropped %d  errors %d  %s",
		kind, r.Step, r.Target, r.Workload, rate(r.Rate), Nanos(l.P50), Nanos(l.P99), Nanos(r.Lag.P99), Nanos(l.P999), r.Dropped, r.Errors, v)
}

// CapacityLine is a search's answer in one line.
func CapacityLine(c result.Capacity) string {
	if c.Limit == "none" {
		return fmt.Sprintf("capacity %s/%s: no rate tried met %s (the lowest tried, %s/s, failed)", c.Target, c.Workload, c.SLO, rate(c.FirstFailingRate))
	}
	line := fmt.Sprintf("capacity %s/%s: %s/s under %s (first failing rate %s/s, %d steps)",
		c.Target, c.Workload, rate(c.MaxRate), c.SLO, rate(c.FirstFailingRate), len(c.Steps))
	switch c.Limit {
	case "max-in-flight":
		line += "; bounded by the operations dbmeter may keep in flight: raise that limit if the target takes more concurrent operations"
	case "client":
		line += "; bounded by dbmeter itself (its CPU or schedule lag): this is not the target's capacity"
	}
	for _, w := range c.Warnings {
		line += "; " + w
	}
	return line
}

// capacityGrid ranks the configurations searched by their answer.
func capacityGrid(doc *result.Document) (Grid, bool) {
	if len(doc.Capacity) == 0 {
		return Grid{}, false
	}
	cs := slices.Clone(doc.Capacity)
	slices.SortStableFunc(cs, func(a, b result.Capacity) int { return cmp.Compare(b.MaxRate, a.MaxRate) })
	differ := differingParams(cs)
	g := Grid{Title: "capacity: highest rate meeting the objective", Labels: 2 + len(differ),
		Header: append(append([]string{"target", "workload"}, labels(differ)...), "slo", "max rate/s", "first failing/s", "steps", "bounded by")}
	for _, c := range cs {
		row := []string{c.Target, c.Workload}
		for _, k := range differ {
			row = append(row, c.Params[k])
		}
		row = append(row, c.SLO, rate(c.MaxRate), rate(c.FirstFailingRate), fmt.Sprint(len(c.Steps)), c.Limit)
		g.Rows = append(g.Rows, row)
	}
	return g, true
}

// differingParams are the params whose values differ between the
// configurations (a --matrix's knobs), rate aside.
func differingParams(cs []result.Capacity) []string {
	var out []string
	for k, v := range cs[0].Params {
		if k == result.SettingRate {
			continue
		}
		for _, c := range cs[1:] {
			if c.Params[k] != v {
				out = append(out, k)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// searchRuns returns the runs of doc that were steps of search c, by rate.
func searchRuns(doc *result.Document, c result.Capacity) []result.Run {
	var out []result.Run
	for _, r := range doc.Runs {
		if r.Verdict == nil || r.Target != c.Target || r.Workload != c.Workload || !sameBut(r.Params, c.Params, result.SettingRate) {
			continue
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b result.Run) int { return cmp.Compare(a.Rate, b.Rate) })
	return out
}

func sameBut(a, b map[string]string, skip string) bool {
	for k, v := range a {
		if k != skip && b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if k != skip && a[k] != v {
			return false
		}
	}
	return true
}

// kneeCharts draws, for each source with capacity searches, latency
// percentiles against the offered rate, one line per configuration and
// percentile, with the objective as a horizontal line and each answer (the
// knee) as a vertical one.
func kneeCharts(srcs []Source, col colors, id func(string) string) []Chart {
	var out []Chart
	for _, src := range srcs {
		if len(src.Doc.Capacity) == 0 {
			continue
		}
		var series []any
		var limit float64
		for _, c := range src.Doc.Capacity {
			if l := float64(c.LatencyLimitNs); l > 0 && (limit == 0 || l < limit) {
				limit = l
			}
			name := c.Target + "/" + c.Workload
			if k := differingParams(src.Doc.Capacity); len(k) > 0 {
				for _, p := range k {
					name += " " + result.Label(p) + "=" + c.Params[p]
				}
			}
			runs := searchRuns(src.Doc, c)
			for _, pc := range []struct {
				label string
				dash  string
				v     func(result.Latency) int64
			}{{"p50", "dotted", func(l result.Latency) int64 { return l.P50 }}, {"p99", "solid", func(l result.Latency) int64 { return l.P99 }}, {"p99.9", "dashed", func(l result.Latency) int64 { return l.P999 }}} {
				var data []any
				for _, r := range runs {
					if r.Ops > 0 {
						data = append(data, []float64{r.Rate, float64(pc.v(r.Latency))})
					}
				}
				s := map[string]any{"name": name + " " + pc.label, "type": "line", "data": data, "color": col.of(name), "lineStyle": map[string]any{"type": pc.dash}}
				if pc.label == "p99" && c.MaxRate > 0 {
					s["markLine"] = map[string]any{"symbol": "none", "label": map[string]any{"formatter": "knee " + Count(c.MaxRate) + "/s", "position": "insideEndTop"},
						"data": []any{map[string]any{"xAxis": c.MaxRate}}}
				}
				series = append(series, s)
			}
		}
		if limit > 0 && len(series) > 0 {
			series = append(series, map[string]any{"name": "objective", "type": "line", "data": []any{}, "color": "#d00000",
				"markLine": map[string]any{"symbol": "none", "lineStyle": map[string]any{"color": "#d00000", "type": "solid"},
					"label": map[string]any{"formatter": "objective", "position": "insideEndTop"}, "data": []any{map[string]any{"yAxis": limit}}}})
		}
		o := base(src.Name + ": latency against offered rate")
		o["tooltip"] = map[string]any{"trigger": "axis"}
		o["xAxis"] = map[string]any{"type": "value", "name": "offered rate (ops/s)", "nameLocation": "middle", "nameGap": 28}
		o["yAxis"] = map[string]any{"type": "log", "name": "latency", "logBase": 10}
		o["series"] = series
		out = append(out, withLegend(Chart{ID: id("knee"), Title: o["title"].(map[string]any)["text"].(string), Option: o, X: "count", Y: "ns"}, seriesNames(series)))
		out = append(out, stepsChart(id("steps"), src, col))
	}
	return out
}

// stepsChart draws each step of a source's searches: the throughput it
// achieved against the rate it offered, green where the step met the
// objective and red where it failed, beside the line where the two are
// equal.
func stepsChart(id string, src Source, col colors) Chart {
	var series []any
	top := 0.0
	for _, c := range src.Doc.Capacity {
		name := c.Target + "/" + c.Workload
		for _, p := range differingParams(src.Doc.Capacity) {
			name += " " + result.Label(p) + "=" + c.Params[p]
		}
		var data []any
		for _, r := range searchRuns(src.Doc, c) {
			colour, verdict := "#3ba272", "pass"
			if !r.Verdict.Pass {
				colour, verdict = "#d00000", "FAIL: "+r.Verdict.Reason
			}
			top = max(top, r.Rate, r.OpsPerS)
			data = append(data, map[string]any{"value": []any{r.Rate, roundFigure(r.OpsPerS)}, "name": fmt.Sprintf("step %d: %s", r.Step, verdict),
				"itemStyle": map[string]any{"color": colour}})
		}
		series = append(series, map[string]any{"name": name + " achieved", "type": "line", "data": data, "color": col.of(name),
			"symbolSize": 9, "showSymbol": true})
	}
	series = append(series, map[string]any{"name": "achieved = offered", "type": "line", "data": []any{[]float64{0, 0}, []float64{top, top}},
		"color": "#9aa3b2", "lineStyle": map[string]any{"type": "dashed"}, "showSymbol": false})
	o := base(src.Name + ": each step's achieved rate (red: failed)")
	o["tooltip"] = map[string]any{"trigger": "item"}
	o["xAxis"] = map[string]any{"type": "value", "name": "offered rate (ops/s)", "nameLocation": "middle", "nameGap": 28}
	o["yAxis"] = map[string]any{"type": "value", "name": "achieved ops/s"}
	o["series"] = series
	return withLegend(Chart{ID: id, Title: o["title"].(map[string]any)["text"].(string), Option: o, X: "count", Y: "count"}, seriesNames(series))
}

// rate prints an offered rate: whole above 100/s, three digits below.
func rate(v float64) string {
	if v >= 100 {
		return Count(v)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
