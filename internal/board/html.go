package board

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/dbmeter/dbmeter/internal/report"
)

//go:embed board.html.tmpl
var pageTemplate string

var page = template.Must(template.New("board").Funcs(template.FuncMap{
	"num":    num,
	"ratio":  ratio,
	"pct":    func(x float64) string { return pctOf(x) },
	"ns":     nanos,
	"bytes":  bytesOf,
	"value":  valueText,
	"rank":   rankText,
	"probe":  func(p string) string { return probeNames[p] },
	"bound":  func(p string) string { return boundNames[p] },
	"join":   strings.Join,
	"add1":   func(i int) int { return i + 1 },
	"chart":  chart,
	"isnan":  math.IsNaN,
	"expl":   func(k *Kind, b *Board, m int) string { return k.Explanation(b, m) },
	"when":   func(m *Machine) string { return m.StartedAt.UTC().Format("2006-01-02 15:04 UTC") },
	"engine": func(c *Cell) string { return c.Engine },
	"deps":   func(*Board) []report.Dependence { return report.Dependences() },
	"spread": func(k *Kind) string { return k.SpreadLine() },
	"modules": func(m map[string]string) string {
		var out []string
		for k, v := range m {
			out = append(out, k+" "+v)
		}
		sort.Strings(out)
		return strings.Join(out, ", ")
	},
	"floor":   func() int { return RatioFloorNs },
	"penalty": func() int { return PenaltyFactor },
}).Parse(pageTemplate))

// filter is one of the page's filters: a machine attribute or the cells'
// engine, and its values.
type filter struct {
	Key, Label string
	Values     []string
}

type htmlPage struct {
	B       *Board
	Filters []filter
	Groups  []cellGroup
}

// cellGroup is the cells of one kind, for one table on the page.
type cellGroup struct {
	Kind  *Kind
	Cells []*Cell
}

// WriteHTML writes the board as one offline page: inline style, script
// and SVG, nothing fetched.
func WriteHTML(w io.Writer, b *Board) error {
	p := htmlPage{B: b, Filters: filters(b)}
	for _, k := range b.Kinds {
		g := cellGroup{Kind: k}
		for _, c := range b.Cells {
			if c.Kind == k.Name {
				g.Cells = append(g.Cells, c)
			}
		}
		p.Groups = append(p.Groups, g)
	}
	if err := page.Execute(w, p); err != nil {
		return fmt.Errorf("render the board: %w", err)
	}
	return nil
}

func filters(b *Board) []filter {
	vals := func(get func(m *Machine) string) []string {
		seen := map[string]bool{}
		var out []string
		for _, m := range b.Machines {
			if v := get(m); !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
		sort.Strings(out)
		return out
	}
	engines := map[string]bool{}
	var es []string
	for _, c := range b.Cells {
		if c.Engine != "" && !engines[c.Engine] {
			engines[c.Engine] = true
			es = append(es, c.Engine)
		}
	}
	sort.Strings(es)
	return []filter{
		{Key: "engine", Label: "engine", Values: es},
		{Key: "server", Label: "server version", Values: vals(func(m *Machine) string { return m.ServerVersion })},
		{Key: "storage", Label: "storage", Values: vals(func(m *Machine) string { return m.StorageClass })},
		{Key: "cores", Label: "cores", Values: vals(func(m *Machine) string { return m.Cores })},
	}
}

// num prints a figure with three significant digits, thousands whole.
func num(x float64) string {
	switch a := math.Abs(x); {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return "–"
	case a >= 1e6:
		return fmt.Sprintf("%.3gM", x/1e6)
	case a >= 1000:
		return fmt.Sprintf("%.0f", x)
	case a >= 100:
		return fmt.Sprintf("%.1f", x)
	case a >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

func ratio(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%.2f×", x)
}

func pctOf(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.0f %%", 100*x)
}

func nanos(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "–"
	case a >= 1e9:
		return fmt.Sprintf("%.3g s", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.3g ms", v/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.3g µs", v/1e3)
	}
	return fmt.Sprintf("%.0f ns", v)
}

func bytesOf(v int64) string {
	return fmt.Sprintf("%.1f GiB", float64(v)/(1<<30))
}

// valueText is a value with its interval, or why it is missing.
func valueText(v Value) string {
	if !v.present() {
		return "missing"
	}
	if math.IsNaN(v.Lo) {
		return num(v.V) + " (n=1)"
	}
	return fmt.Sprintf("%s [%s–%s]", num(v.V), num(v.Lo), num(v.Hi))
}

// rankText is a rank with its interval: "2 (1–3)"; one rank when the
// interval is that rank alone.
func rankText(v Value) string {
	if !v.present() {
		return ""
	}
	if v.RankLo == v.RankHi && v.RankLo == v.Rank {
		return fmt.Sprint(v.Rank)
	}
	return fmt.Sprintf("%d (%d–%d)", v.Rank, v.RankLo, v.RankHi)
}

// chart draws one kind's summary as inline SVG bars, raw and normalised
// geometric means per machine, in the family reports' palette.
func chart(b *Board, k *Kind) template.HTML {
	const rowH, left, width = 34, 190, 900
	h := rowH*len(b.Machines) + 46
	top := 1.0
	for _, r := range k.Rows {
		for _, x := range []float64{r.Geo, r.GeoNorm} {
			if !math.IsNaN(x) {
				top = math.Max(top, x)
			}
		}
	}
	scale := float64(width-left-80) / top
	var s strings.Builder
	fmt.Fprintf(&s, `<svg class="bars" viewBox="0 0 %d %d" role="img" aria-label="%s">`, width, h, template.HTMLEscapeString(k.Name))
	for i, m := range b.Machines {
		y := 8 + i*rowH
		r := k.Rows[i]
		fmt.Fprintf(&s, `<g data-m="%d"><text x="%d" y="%d" text-anchor="end">%s</text>`, i, left-8, y+20, template.HTMLEscapeString(m.Name))
		for j, x := range []float64{r.Geo, r.GeoNorm} {
			if math.IsNaN(x) {
				continue
			}
			col := []string{"#5470c6", "#91cc75"}[j]
			fmt.Fprintf(&s, `<rect x="%d" y="%d" width="%.1f" height="12" fill="%s"/><text x="%.1f" y="%d" class="v">%s</text>`,
				left, y+2+j*14, x*scale, col, float64(left)+x*scale+4, y+12+j*14, ratio(x))
		}
		s.WriteString(`</g>`)
	}
	y := h - 30
	fmt.Fprintf(&s, `<line x1="%.1f" y1="4" x2="%.1f" y2="%d" stroke="#5b6474" stroke-dasharray="3,3"/>`, float64(left)+scale, float64(left)+scale, y)
	fmt.Fprintf(&s, `<rect x="%d" y="%d" width="12" height="12" fill="#5470c6"/><text x="%d" y="%d">ratio to the best (geometric mean, 1 = best)</text>`, left, y+10, left+16, y+21)
	fmt.Fprintf(&s, `<rect x="%d" y="%d" width="12" height="12" fill="#91cc75"/><text x="%d" y="%d">normalised by the reference</text>`, left+360, y+10, left+376, y+21)
	s.WriteString(`</svg>`)
	return template.HTML(s.String())
}
