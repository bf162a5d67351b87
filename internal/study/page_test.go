package study

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/report"
)

// The study page in its three forms says the same in the same order: the
// verdicts, then (HTML) the charts, the tables with their intervals, the
// deviations and the environments; a deviation is named in the header and
// told once, in full, after the tables.
func TestPageOrderAndMarks(t *testing.T) {
	s, err := Parse("n.yaml", []byte(noisyStudy))
	if err != nil {
		t.Fatal(err)
	}
	p := Page(Evaluate(s, noisyDoc(3, map[string]float64{"x": 100, "y": 90})))
	var text, md, page bytes.Buffer
	if err := report.PageText(&text, p); err != nil {
		t.Fatal(err)
	}
	if err := report.PageMarkdown(&md, p); err != nil {
		t.Fatal(err)
	}
	if err := report.PageHTML(&page, p); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		form, out string
		order     []string
	}{
		{"text", text.String(), []string{"deviations from the source (2, told below): two-cores, short", "\nVerdicts\n", "[undecided] rank: x before y", "\nTables\n", "100.0 ±", "\nHow this run departs from the source\n", "two-cores: two cores (forced by this machine); can move tp"}},
		{"markdown", md.String(), []string{"- deviations from the source (2, told below)", "## Verdicts", "- **undecided:** rank: x before y", "## Tables", "| noop | published |", "## How this run departs from the source", "- short: short windows (the file's choice: to finish in a minute); can move diff"}},
		{"html", page.String(), []string{"deviations from the source (2, told below)", `<section id="verdicts">`, `<li class="open"><span class="mark">undecided</span>rank: x before y`, `<section id="charts">`, `<div class="chart" id="chart-1"`, `<section id="tables">`, `<td class="l">here/published</td>`, `<section id="departures">`}},
	}
	if strings.Contains(page.String(), `<section id="environments">`) {
		t.Error("html: a section of differences with no environment published")
	}
	for _, tt := range tests {
		at := 0
		for _, want := range tt.order {
			i := strings.Index(tt.out[at:], want)
			if i < 0 {
				t.Errorf("%s: %q missing, or not after what comes before it:\n%s", tt.form, want, tt.out[at:min(len(tt.out), at+3000)])
				break
			}
			at += i + len(want)
		}
		if n := strings.Count(tt.out, "to finish in a minute"); n != 1 {
			t.Errorf("%s: a deviation told %d times, want once", tt.form, n)
		}
	}
}
