package board

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

	"github.com/dbmeter/dbmeter/internal/servertest"
)

// chromium finds headless Chromium; without it the test skips in one
// line, unless CI=true, where a missing browser fails (scripts/deps.sh
// test installs it).
func chromium(t *testing.T) string {
	t.Helper()
	servertest.E2E(t, "renders the board in headless Chromium: seconds")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true and no chromium on PATH: scripts/deps.sh test installs it")
	}
	t.Skip("chromium is not installed: this test renders the board in it (scripts/deps.sh test installs it)")
	return ""
}

// probe runs in the page after its script and writes what a reader would
// see wrong into <body data-layout>: the page wider than the window, and
// words in a table past their box; and which machines the filters hid.
const probe = `<script>
(function () {
  var out = { pageOverflow: document.documentElement.scrollWidth - window.innerWidth, overlaps: [], hidden: [] };
  document.querySelectorAll(".scroll td.w").forEach(function (td) {
    var box = td.closest(".scroll").getBoundingClientRect(), r = td.getBoundingClientRect();
    if (r.right > box.right + 1) out.overlaps.push("table cell " + JSON.stringify(td.textContent.slice(0, 60)) + " past its box's right edge");
  });
  document.querySelectorAll("#machines tr[data-m]").forEach(function (r) {
    if (r.classList.contains("hidden")) out.hidden.push(r.getAttribute("data-name"));
  });
  document.body.setAttribute("data-layout", JSON.stringify(out));
})();
</script>`

type layout struct {
	PageOverflow int      `json:"pageOverflow"`
	Overlaps     []string `json:"overlaps"`
	Hidden       []string `json:"hidden"`
}

// render renders page in headless Chromium at width px, opened with the
// URL fragment given, and returns the probe's findings.
func render(t *testing.T, bin string, page []byte, width int, fragment string) layout {
	t.Helper()
	p := string(page)
	end := strings.LastIndex(p, "</body>")
	path := filepath.Join(t.TempDir(), "board.html")
	if err := os.WriteFile(path, []byte(p[:end]+probe+p[end:]), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--user-data-dir="+t.TempDir(), "--virtual-time-budget=5000",
		fmt.Sprintf("--window-size=%d,2000", width), "--dump-dom", "file://"+path+fragment)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	m := regexp.MustCompile(`data-layout="([^"]*)"`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatal("the layout probe did not run: the page's script failed")
	}
	var l layout
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// The board as a reader sees it at 1,400 px in headless Chromium: no
// wider than the window (wide tables scroll in their own box), words in
// tables wrap in view, and a view's filters come back from the URL
// fragment. It renders the committed example (docs/board) when present,
// else synthetic machines.
func TestBoardLayoutInChromium(t *testing.T) {
	bin := chromium(t)
	b := exampleBoard(t)
	if b == nil {
		b = board(t, Options{Note: "synthetic machines"},
			machine{name: "plain", cpuNs: 5e6, map_: reps(1000, 20), btr: reps(500, 10)},
			machine{name: "one-core", cpuNs: 5e6, cores: 1, map_: reps(500, 10), btr: reps(250, 5)},
			machine{name: "slow", cpuNs: 10e6, map_: reps(500, 10), btr: reps(250, 5)},
		)
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, b); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(page.Bytes(), []byte("http://")) || bytes.Contains(page.Bytes(), []byte("https://")) {
		t.Error("the page names a URL: it must need no network")
	}
	l := render(t, bin, page.Bytes(), 1400, "")
	if l.PageOverflow > 0 {
		t.Errorf("the page is %d px wider than the 1,400 px window", l.PageOverflow)
	}
	for _, o := range l.Overlaps {
		t.Error(o)
	}
	if len(l.Hidden) != 0 {
		t.Errorf("machines hidden with no filter: %v", l.Hidden)
	}
	var want []string
	for _, m := range b.Machines {
		if m.Cores != "1" {
			want = append(want, m.Name)
		}
	}
	if l := render(t, bin, page.Bytes(), 1400, "#cores=1"); strings.Join(l.Hidden, ",") != strings.Join(want, ",") {
		t.Errorf("#cores=1 hid %v, want the machines of other core counts %v", l.Hidden, want)
	}
}
