package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// Documents written before settings were declared (dbmeter 52d3a57, every
// flag among the runs' params) still compare: runs that differ only in how
// they were observed match, by the roles of that time.
func TestCompareOldDocuments(t *testing.T) {
	t.Parallel()
	tests := []struct{ base, new string }{
		{"old-null.json", "old-null-hdrlog.json"},
		{"old-null.json", "old-null-nodiskprobe.json"},
	}
	for _, tt := range tests {
		t.Run(tt.new, func(t *testing.T) {
			t.Parallel()
			srcs, err := ReadSources("testdata/"+tt.base, "testdata/"+tt.new)
			if err != nil {
				t.Fatal(err)
			}
			if srcs[0].Doc.Settings != nil {
				t.Fatalf("%s declares its settings: not a document of the old format", tt.base)
			}
			var out bytes.Buffer
			if err := Compare(&out, srcs[0], srcs[1]); err != nil || !strings.Contains(out.String(), "null null noop") || strings.Contains(out.String(), "only in") {
				t.Errorf("compare %s %s: error %v, output:\n%s", tt.base, tt.new, err, out.String())
			}
		})
	}
}

// A figure whose interval is wider than itself is not compared: compare
// says so in words instead of printing a ± over 100 % and a change.
func TestCompareSpreadLargerThanFigure(t *testing.T) {
	t.Parallel()
	base, new := fakeDoc(t, 4, 1), fakeDoc(t, 4, 1)
	for i := range base.Runs {
		if base.Runs[i].Repeat == 4 {
			base.Runs[i].Latency.P99 *= 1000 // one repetition's p99 from another world
		}
	}
	var out bytes.Buffer
	if err := Compare(&out, Source{Name: "a", Doc: base}, Source{Name: "b", Doc: new}); err != nil {
		t.Fatal(err)
	}
	wide := regexp.MustCompile(`±[1-9][0-9]{2,}%`)
	var p99 []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "p99 ") {
			p99 = append(p99, l)
		}
	}
	if len(p99) != 4 {
		t.Fatalf("%d p99 lines, want one per engine and operation:\n%s", len(p99), out.String())
	}
	for _, l := range p99 {
		if !strings.Contains(l, "not comparable: spread larger than the figure in base") || wide.MatchString(l) {
			t.Errorf("p99 line %q: want it not comparable, with no ± of 100%% or more", l)
		}
	}
	if !strings.Contains(out.String(), "±: half-width of the 95% confidence interval") {
		t.Errorf("the header does not say which statistic ± is:\n%s", out.String())
	}
}

// Several documents per side: the runs of one test in a side's documents
// are its repetitions together, enough for a verdict where one document
// alone has too few.
func TestCompareSides(t *testing.T) {
	t.Parallel()
	base := []Source{{Name: "a1", Doc: fakeDoc(t, 2, 1)}, {Name: "a2", Doc: fakeDoc(t, 2, 1)}}
	new := []Source{{Name: "b1", Doc: fakeDoc(t, 2, 2)}, {Name: "b2", Doc: fakeDoc(t, 2, 2)}}
	var out bytes.Buffer
	if err := CompareSides(&out, base, new); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"base: a2", "new:  b2", "kv pebble get  (closed loop, workers 1; base n=4, new n=4)", "better (p=0.029 n=4)"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
}
