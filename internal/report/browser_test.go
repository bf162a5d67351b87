package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// browser finds headless Chromium, which scripts/deps.sh test installs.
// Without it the test skips, saying so, and fails in CI (CI=true) or under
// DBMETER_E2E=1 (as make test sets).
func browser(t *testing.T) string {
	t.Helper()
	servertest.E2E(t, "renders pages in headless Chromium: seconds each")
	for _, name := range []string{"chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return servertest.Tool(t, "chromium", "this test renders the HTML report in it; scripts/deps.sh test installs it (Debian's chromium)")
}

// layoutProbe runs in the page after its charts are drawn and writes what
// a reader would see wrong into <body data-layout>: the page wider than
// the window, text of a chart drawn over other text (a legend on an axis
// name, labels on labels), and an axis whose tick labels repeat (0, 1, 1,
// 2, 2, 3, 3 for ticks 0 to 3 by 0.5).
const layoutProbe = `<script>
(function () {
  var out = { pageOverflow: 0, overlaps: [], repeatedTicks: [] };
  out.pageOverflow = document.documentElement.scrollWidth - window.innerWidth;
  // Words in a table (a step's verdict) wrap in view; only figures may
  // need the table's own scroll bar.
  document.querySelectorAll(".scroll td.w").forEach(function (td) {
    var box = td.closest(".scroll").getBoundingClientRect(), r = td.getBoundingClientRect();
    if (r.right > box.right + 1) out.overlaps.push("table cell " + JSON.stringify(td.textContent) + " past its box's right edge");
  });
  document.querySelectorAll(".chart").forEach(function (c) {
    var texts = [].slice.call(c.querySelectorAll("svg text")).filter(function (t) {
      var r = t.getBoundingClientRect();
      return t.textContent.trim() !== "" && r.width > 0 && getComputedStyle(t).opacity !== "0";
    });
    var boxes = texts.map(function (t) { return { s: t.textContent, r: t.getBoundingClientRect() }; });
    var frame = c.getBoundingClientRect();
    boxes.forEach(function (b) {
      if (b.r.left < frame.left - 1 || b.r.right > frame.right + 1 || b.r.top < frame.top - 1 || b.r.bottom > frame.bottom + 1)
        out.overlaps.push(c.id + ": " + JSON.stringify(b.s) + " cut by the chart's edge");
    });
    for (var i = 0; i < boxes.length; i++) for (var j = i + 1; j < boxes.length; j++) {
      var a = boxes[i].r, b = boxes[j].r;
      var w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 2 && h > 2) out.overlaps.push(c.id + ": " + JSON.stringify(boxes[i].s) + " over " + JSON.stringify(boxes[j].s));
    }
    // Tick labels of one vertical axis share their right edge.
    var byEdge = {};
    boxes.forEach(function (b) {
      if (!/^[0-9.,]+[kM]?$/.test(b.s)) return;
      var k = Math.round(b.r.right);
      (byEdge[k] = byEdge[k] || []).push(b.s);
    });
    Object.keys(byEdge).forEach(function (k) {
      var seen = {};
      byEdge[k].forEach(function (s) { if (seen[s]) out.repeatedTicks.push(c.id + ": " + byEdge[k].join(",")); seen[s] = true; });
    });
  });
  document.body.setAttribute("data-layout", JSON.stringify(out));
})();
</script>`

// renderInBrowser renders srcs' HTML report in headless Chromium at a
// window width and returns the page's DOM after its scripts ran, with
// layoutProbe's findings.
func renderInBrowser(t *testing.T, bin string, srcs []Source, width int) string {
	t.Helper()
	var page bytes.Buffer
	if err := HTML(&page, srcs); err != nil {
		t.Fatal(err)
	}
	p := page.String()
	end := strings.LastIndex(p, "</body>") // ECharts' own source holds the string too
	probed := p[:end] + layoutProbe + p[end:]
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(probed), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--user-data-dir="+t.TempDir(), "--virtual-time-budget=10000",
		fmt.Sprintf("--window-size=%d,2000", width), "--dump-dom", "file://"+path)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	return out.String()
}

type layout struct {
	PageOverflow  int      `json:"pageOverflow"`
	Overlaps      []string `json:"overlaps"`
	RepeatedTicks []string `json:"repeatedTicks"`
}

var layoutAttr = regexp.MustCompile(`data-layout="([^"]*)"`)

// The HTML report as a reader sees it at 1,280 and 1,600 px, in headless
// Chromium: every chart drawn, the page no wider than the window (wide
// tables scroll in their own box), no chart text drawn over other text,
// no axis with repeated tick labels, the over-time charts one line per
// target at most overTimePoints points, and a capacity search's steps
// shown step by step, never pooled into one bar.
func TestHTMLReportLayoutInChromium(t *testing.T) {
	t.Parallel()
	bin := browser(t)
	srcs := []Source{
		{Name: "kv.json", Doc: longKVDoc(t)},
		{Name: "mixed.json", Doc: mixedDoc(t)},
		{Name: "capacity.json", Doc: capacityDoc(t)},
	}
	charts, err := Charts(srcs)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range charts {
		if strings.Contains(c.Title, "over time") {
			for _, s := range c.Option["series"].([]any) {
				m := s.(map[string]any)
				if n := len(m["data"].([]any)); m["type"] == "line" && n > overTimePoints {
					t.Errorf("%s: %s has %d points, want at most %d", c.Title, m["name"], n, overTimePoints)
				}
				if strings.Contains(m["name"].(string), "#") {
					t.Errorf("%s: a line per repetition (%s), want one per target", c.Title, m["name"])
				}
			}
		}
		for _, s := range c.Option["series"].([]any) {
			m := s.(map[string]any)
			if m["errorbar"] != true {
				continue
			}
			for _, d := range m["data"].([]any) {
				if lo := d.([]any)[1].(float64); lo < 0 {
					t.Errorf("%s: an error bar reaches %v, below zero", c.Title, lo)
				}
			}
		}
		if names := strings.Join(seriesNames(c.Option["series"].([]any)), ","); strings.Contains(names, "[capacity.json]") && !strings.HasPrefix(c.Title, "capacity.json") {
			t.Errorf("%s: a capacity search's steps pooled into one figure (%s)", c.Title, names)
		}
	}
	for _, width := range []int{1280, 1600} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			t.Parallel()
			dom := renderInBrowser(t, bin, srcs, width)
			if !strings.Contains(dom, `data-charts="drawn"`) {
				i := strings.Index(dom, `id="dbmeter-errors"`)
				t.Fatalf("the page did not draw every chart: %s", dom[i:min(len(dom), i+2000)])
			}
			m := layoutAttr.FindStringSubmatch(dom)
			if m == nil {
				t.Fatal("the layout probe did not run")
			}
			var l layout
			if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &l); err != nil {
				t.Fatal(err)
			}
			if l.PageOverflow > 0 {
				t.Errorf("the page is %d px wider than the %d px window: a table does not scroll in its own box", l.PageOverflow, width)
			}
			for _, o := range l.Overlaps {
				t.Errorf("text drawn over text: %s", o)
			}
			for _, r := range l.RepeatedTicks {
				t.Errorf("an axis repeats its tick labels: %s", r)
			}
			if !regexp.MustCompile(`<td class="[^"]*\bw">FAIL: p99 138ms over the objective 100ms`).MatchString(dom) {
				t.Error("a capacity step's verdict is not in the page as words that wrap")
			}
		})
	}
}

// longKVDoc is kv at its defaults' shape: three engines, seven
// repetitions, each with a progress interval every 0.1 s over 10 s.
func longKVDoc(t *testing.T) *result.Document {
	doc := fakeDoc(t, 7, 1)
	for i := range doc.Runs {
		r := &doc.Runs[i]
		r.Intervals = nil
		for k := 1; k <= 100; k++ {
			r.Intervals = append(r.Intervals, result.Interval{TS: float64(k) / 10, Ops: int64(r.OpsPerS/10) + int64(k%7*1000), P50: 900, P99: 2000 + int64(k%5*100)})
		}
	}
	return doc
}

// capacityDoc is a capacity search over null/noop: five steps, the last
// two failing, one with a long verdict.
func capacityDoc(t *testing.T) *result.Document {
	doc := fakeDoc(t, 1, 1)
	doc.Runs = nil
	doc.Command = "dbmeter null --find-max-rate --slo p99<100ms"
	verdicts := []result.Verdict{{Pass: true}, {Pass: true}, {Pass: true}, {Pass: false, Reason: "p99 138ms over the objective 100ms; dropped 1,204 operations (2.4%)"}, {Pass: false, Reason: "errors 3.1% over the objective 1%"}}
	var steps []int
	for i, v := range verdicts {
		rate := float64(1000 * (i + 1))
		r := fakeRun(t, "null", "null", "noop", 1, rate*0.99, int64(20_000_000*(i+1)), 0, map[string]string{"rate": fmt.Sprint(rate)})
		r.Mode, r.Rate, r.Step, r.Verdict = "open", rate, i+1, &v
		doc.Runs = append(doc.Runs, r)
		steps = append(steps, i+1)
	}
	doc.Capacity = []result.Capacity{{Family: "null", Target: "null", Workload: "noop", Params: map[string]string{"workers": "1", "seed": "1", "json": "r.json", "duration": "3s"},
		SLO: "p99<100ms", LatencyLimitNs: 100_000_000, MaxRate: 3000, FirstFailingRate: 4000, Steps: steps, Limit: "objective"}}
	return doc
}
