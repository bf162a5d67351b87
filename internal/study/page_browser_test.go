package study

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// pageProbe runs in the study page after its charts are drawn and writes
// into <body data-layout> what a reader at the window's width would see
// wrong or needs: how far the page runs past the window, the tables cut
// by their own box, the sections in order, and the charts drawn.
const pageProbe = `<script>
(function () {
  var out = { pageOverflow: document.documentElement.scrollWidth - window.innerWidth, cut: [], sections: [], drawn: 0, firstChartTop: 0, firstTableTop: 0, verdictsTop: 0 };
  document.querySelectorAll(".wrap").forEach(function (w) {
    var h = w.previousElementSibling;
    while (h && h.tagName !== "H3") h = h.previousElementSibling;
    if (w.scrollWidth > w.clientWidth + 1) out.cut.push((h ? h.textContent : "a table") + ": " + w.scrollWidth + " px in " + w.clientWidth);
  });
  document.querySelectorAll("section").forEach(function (s) { out.sections.push(s.id); });
  document.querySelectorAll(".chart").forEach(function (c) { if (c.getAttribute("data-drawn") === "yes") out.drawn++; });
  var top = function (sel) { var e = document.querySelector(sel); return e ? e.getBoundingClientRect().top : -1; };
  out.verdictsTop = top("#verdicts"); out.firstChartTop = top(".chart"); out.firstTableTop = top("table");
  document.body.setAttribute("data-layout", JSON.stringify(out));
})();
</script>`

type pageLayout struct {
	PageOverflow  int      `json:"pageOverflow"`
	Cut           []string `json:"cut"`
	Sections      []string `json:"sections"`
	Drawn         int      `json:"drawn"`
	VerdictsTop   float64  `json:"verdictsTop"`
	FirstChartTop float64  `json:"firstChartTop"`
	FirstTableTop float64  `json:"firstTableTop"`
}

// The study page, from a built-in study's recorded quick run, as a reader
// sees it in headless Chromium 1,400 px wide: nothing runs past the
// window or is cut in a table's box (s5's eleven engines are laid out as
// rows), the verdicts come before every chart and table, and every table
// has its chart, drawn. s5 has the widest tables and the most charts;
// s1 a table with nothing to draw (its chart says so). The other three
// pass too, at 4 s of Chromium each: add them here when their layout
// changes.
func TestStudyPageInChromium(t *testing.T) {
	servertest.E2E(t, "renders the study page in headless Chromium: seconds")
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" && os.Getenv("CI") != "true" {
		t.Skip("chromium is not installed (scripts/deps.sh test installs it): the study page is not rendered")
	} else if bin == "" {
		t.Fatal("CI=true and no chromium on PATH: scripts/deps.sh test installs it")
	}
	for _, id := range []string{"s1", "s5"} {
		t.Run(id, func(t *testing.T) {
			s, err := Load(id)
			if err != nil {
				t.Fatal(err)
			}
			l := pageInChromium(t, bin, Page(Evaluate(s, recorded(t, id))))
			if l.PageOverflow > 0 {
				t.Errorf("the page is %d px wider than the 1,400 px window", l.PageOverflow)
			}
			for _, c := range l.Cut {
				t.Errorf("a table is wider than its box, cut at 1,400 px: %s", c)
			}
			if len(l.Sections) == 0 || l.Sections[0] != "verdicts" || l.VerdictsTop > l.FirstChartTop || l.VerdictsTop > l.FirstTableTop {
				t.Errorf("the verdicts do not come first: sections %v, verdicts at %.0f px, first chart at %.0f, first table at %.0f", l.Sections, l.VerdictsTop, l.FirstChartTop, l.FirstTableTop)
			}
			if l.Drawn != len(s.Tables) {
				t.Errorf("%d charts drawn for %d tables", l.Drawn, len(s.Tables))
			}
		})
	}
}

// pageInChromium renders p in headless Chromium 1,400 px wide and returns
// what pageProbe found once its charts were drawn.
func pageInChromium(t *testing.T, bin string, p report.Page) pageLayout {
	t.Helper()
	var page bytes.Buffer
	if err := report.PageHTML(&page, p); err != nil {
		t.Fatal(err)
	}
	h := page.String()
	end := strings.LastIndex(h, "</body>") // ECharts' own source holds the string too
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, []byte(h[:end]+pageProbe+h[end:]), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--user-data-dir="+t.TempDir(), "--virtual-time-budget=10000",
		"--window-size=1400,2000", "--dump-dom", "file://"+path)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	dom := out.String()
	if !strings.Contains(dom, `data-charts="drawn"`) {
		i := strings.Index(dom, `id="dbmeter-errors"`)
		t.Errorf("the page did not draw every chart: %s", dom[max(i, 0):min(len(dom), max(i, 0)+500)])
	}
	m := regexp.MustCompile(`data-layout="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatal("the layout probe did not run")
	}
	var l pageLayout
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &l); err != nil {
		t.Fatal(err)
	}
	return l
}
