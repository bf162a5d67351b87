package report

import (
	"fmt"
	"math"
)

// A PairPanel is one panel of a PairChart: for each category, a published
// figure and the one measured here with its 95 % interval. NaN marks a
// figure or an interval that is not there.
type PairPanel struct {
	Name                   string
	Published, Measured    []float64
	MeasuredLo, MeasuredHi []float64
}

// Pair chart sizes: a row per category holds its two bars.
const (
	pairRow   = 30 // pixels per category
	pairHead  = 70 // title and legend
	pairFoot  = 34 // value-axis labels
	pairLabel = 10 // per cent of the width for the category names
)

// PairChart draws a study table's published figures beside the measured
// ones: horizontal bars, a row per category (the table's rows, as its grid
// lays them out) and a panel per column, side by side, each on its own log
// axis (figures of one table span decades: 3 ns beside 600 µs). The
// measured bar carries its 95 % interval as a whisker, drawn by the page
// as the family charts' error bars are.
func PairChart(id, title string, categories []string, panels []PairPanel) Chart {
	o := base(title)
	o["legend"] = map[string]any{"top": 26, "left": "center", "data": []string{"published", "measured here", "±95% interval"}}
	o["tooltip"] = map[string]any{"trigger": "axis", "axisPointer": map[string]any{"type": "shadow"}}
	n := max(len(panels), 1)
	span := (100.0 - pairLabel - 2) / float64(n)
	var grids, xs, ys, series []any
	titles := []any{o["title"]}
	for i, p := range panels {
		left := pairLabel + float64(i)*span
		grids = append(grids, map[string]any{"left": percent(left + 1), "width": percent(span - 2), "top": pairHead, "bottom": pairFoot})
		titles = append(titles, map[string]any{"text": p.Name, "left": percent(left + span/2), "top": pairHead - 18, "textAlign": "center", "textStyle": map[string]any{"fontSize": 12, "fontWeight": "normal"}})
		lo, hi := panelRange(p)
		xs = append(xs, map[string]any{"type": "log", "logBase": 10, "gridIndex": i, "min": lo, "max": hi, "splitLine": map[string]any{"show": true},
			// The last label of a panel would meet the first of the next.
			"axisLabel": map[string]any{"showMaxLabel": false}})
		ys = append(ys, map[string]any{"type": "category", "gridIndex": i, "data": categories, "inverse": true,
			"axisLabel": map[string]any{"show": i == 0}, "axisTick": map[string]any{"show": i == 0}})
		series = append(series, pairSeries(p, i, lo, hi)...)
	}
	o["title"] = titles
	o["grid"], o["xAxis"], o["yAxis"], o["series"] = grids, xs, ys, series
	delete(o, "toolbox")
	return Chart{ID: id, Title: title, Option: o, X: "count", Height: pairHead + pairFoot + pairRow*max(len(categories), 1)}
}

func percent(v float64) string { return fmt.Sprintf("%.2f%%", v) }

// pairSeries are one panel's bars and whiskers; lo and hi are the axis's
// ends, where a whisker reaching zero or below, or without an upper
// bound (the inverse of a rate whose interval reaches zero), stops.
func pairSeries(p PairPanel, i int, lo, hi float64) []any {
	bars := func(vs []float64) []any {
		out := make([]any, len(vs))
		for k, v := range vs {
			if !math.IsNaN(v) && v > 0 {
				out[k] = roundFigure(v)
			}
		}
		return out
	}
	var whiskers []any
	for k, v := range p.Measured {
		if k < len(p.MeasuredLo) && !math.IsNaN(v) && !math.IsNaN(p.MeasuredLo[k]) && v > 0 {
			// [category, low, high, this bar's index in its row, bars in a row]
			whiskers = append(whiskers, []any{k, roundFigure(min(max(p.MeasuredLo[k], lo), hi)), roundFigure(min(max(p.MeasuredHi[k], lo), hi)), 1, 2})
		}
	}
	common := func(m map[string]any) map[string]any {
		m["xAxisIndex"], m["yAxisIndex"] = i, i
		return m
	}
	return []any{
		common(map[string]any{"name": "published", "type": "bar", "data": bars(p.Published), "color": "#9aa5b8", "barGap": "30%", "barCategoryGap": "20%"}),
		common(map[string]any{"name": "measured here", "type": "bar", "data": bars(p.Measured), "color": palette[0], "barGap": "30%", "barCategoryGap": "20%"}),
		common(map[string]any{"name": "±95% interval", "type": "custom", "errorbar": "h", "data": whiskers, "color": "#1d2330", "z": 10,
			"encode": map[string]any{"y": 0, "x": []int{1, 2}}, "tooltip": map[string]any{"show": false}}),
	}
}

// panelRange is the powers of ten around a panel's figures and
// whiskers' finite ends: its log axis runs between them.
func panelRange(p PairPanel) (lo, hi float64) {
	least, most := math.Inf(1), 0.0
	for _, vs := range [][]float64{p.Published, p.Measured, p.MeasuredLo, p.MeasuredHi} {
		for _, v := range vs {
			if v > 0 && !math.IsInf(v, 1) {
				least, most = min(least, v), max(most, v)
			}
		}
	}
	if most == 0 {
		return 1, 10
	}
	lo, hi = math.Pow(10, math.Floor(math.Log10(least))), math.Pow(10, math.Ceil(math.Log10(most)))
	if hi <= lo {
		hi = lo * 10
	}
	return lo, hi
}
