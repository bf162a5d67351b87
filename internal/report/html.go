package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
)

// echartsJS is Apache ECharts, embedded so the report works offline
// (assets/README.md says where it comes from).
//
//go:embed assets/echarts.min.js
var echartsJS string

//go:embed report.html.tmpl
var pageTemplate string

// sharedTemplate holds what the family report and the study page share:
// the style and the charts' helper functions.
//
//go:embed shared.html.tmpl
var sharedTemplate string

var page = template.Must(template.Must(template.New("report").Funcs(template.FuncMap{
	"bytes": func(v int64) string { return Bytes(float64(v)) },
	"disk":  DiskSummary,
	// machine is what every rendering says under the environment about a
	// busy or drifting machine.
	"machine": MachineLines,
	// wide says a cell holds words, not a figure (a step's verdict): it
	// wraps instead of widening the table past the page.
	"wide": func(s string) bool { return len([]rune(s)) > 24 },
	"modules": func(m map[string]string) string {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k+" "+m[k])
		}
		sort.Strings(keys)
		return strings.Join(keys, ", ")
	},
}).Parse(pageTemplate)).New("shared").Parse(sharedTemplate)).Lookup("report")

type htmlSource struct {
	Source
	Tables []Grid
	Notes  []string
}

type htmlPage struct {
	Title   string
	Sources []htmlSource
	Charts  []Chart
	ECharts template.JS
}

// HTML writes one self-contained page: every script and style is inline
// and nothing is fetched, so the file can be mailed or archived and opened
// offline. The charts are drawn by ECharts as SVG.
func HTML(w io.Writer, srcs []Source) error {
	return renderHTML(w, srcs, echartsJS)
}

// renderHTML is HTML with the charting script given, so golden files can
// leave out its megabyte.
func renderHTML(w io.Writer, srcs []Source, echarts string) error {
	charts, err := Charts(srcs)
	if err != nil {
		return err
	}
	p := htmlPage{Title: title(srcs), Charts: charts, ECharts: template.JS(echarts)}
	for i, s := range srcs {
		p.Sources = append(p.Sources, htmlSource{Source: s, Tables: Tables(srcs, i), Notes: Notes(s.Doc)})
	}
	if err := page.Execute(w, p); err != nil {
		return fmt.Errorf("render html: %w", err)
	}
	return nil
}

func title(srcs []Source) string {
	var fams []string
	seen := map[string]bool{}
	for _, s := range srcs {
		for _, r := range s.Doc.Runs {
			if !seen[r.Family] {
				seen[r.Family] = true
				fams = append(fams, r.Family)
			}
		}
	}
	return "dbmeter report: " + strings.Join(fams, ", ")
}
