package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"
)

func TestReportAndCompareUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := filepath.Join(dir, "r.json")
	if code, _, stderr := run(t, "null", "--duration", "50ms", "--warmup", "0", "--quiet", "--json", r); code != 0 {
		t.Fatalf("null run: exit %d: %s", code, stderr)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"report without files", []string{"report"}, "needs at least one result document"},
		{"report missing file", []string{"report", filepath.Join(dir, "nope.json")}, "cannot read"},
		{"report not a document", []string{"report", "/dev/null"}, "decode result document"},
		{"report unwritable html", []string{"report", r, "--html", "/nonexistent-dir/r.html"}, "cannot write --html"},
		{"compare one file", []string{"compare", r}, "needs two result documents"},
		{"compare bad format", []string{"compare", "--format", "xml", r, r}, `unknown --format "xml"`},
		{"run unwritable md", []string{"null", "--md", "/nonexistent-dir/r.md"}, "cannot write --md"},
		{"run busy metrics addr", []string{"null", "--metrics-addr", "256.0.0.1:1"}, "cannot serve --metrics-addr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, _, stderr := run(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("dbmeter %s: exit %d, stderr %q; want exit 2 and one line with %q", strings.Join(tt.args, " "), code, stderr, tt.want)
			}
		})
	}
}

// TestReportOutputs runs a real null run with every report flag, then
// renders its document again with report and compare.
func TestReportOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	code, _, stderr := run(t, "null", "--duration", "200ms", "--warmup", "0", "--progress", "50ms", "--repeat", "2", "--quiet",
		"--json", p("r.json"), "--html", p("r.html"), "--md", p("r.md"), "--csv", p("r.csv"))
	if code != 0 {
		t.Fatalf("null run: exit %d: %s", code, stderr)
	}
	for name, want := range map[string]string{"r.html": `<div class="chart"`, "r.md": "| null | noop | closed |", "r.csv": "r.json,null,null,noop"} {
		b, err := os.ReadFile(p(name))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q (err %v)", name, want, err)
		}
	}
	code, stdout, stderr := run(t, "report", p("r.json"), "--md", "-")
	if code != 0 || !strings.Contains(stdout, "### null") {
		t.Errorf("report --md -: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = run(t, "compare", p("r.json"), p("r.json"))
	if code != 0 || !strings.Contains(stdout, "~ (n too small: 2+2, need ≥4 repetitions each)") {
		t.Errorf("compare: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = run(t, "compare", "--format", "gobench", p("r.json"))
	if code != 0 || strings.Count(stdout, "BenchmarkNull/target=null/workload=noop") != 2 {
		t.Errorf("compare --format gobench: exit %d, stdout %q", code, stdout)
	}
}

// chromium finds the browser, which scripts/deps.sh test installs. A
// test never installs it: without it the test skips with that line, and
// fails in CI (CI=true) or under DBMETER_E2E=1, where every tool must be
// there.
func chromium(t *testing.T) string {
	t.Helper()
	servertest.E2E(t, "renders pages in headless Chromium: seconds each")
	for _, name := range []string{"chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return servertest.Tool(t, "chromium", "scripts/deps.sh test installs it (Debian's chromium)")
}

// browse runs headless Chromium on page with a fresh profile and no
// network, then returns what it printed on stdout and stderr.
func browse(t *testing.T, bin, page string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*60e9)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + t.TempDir(),
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000",
	}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), "file://"+page)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), errb.String()
}

var (
	chartDiv   = regexp.MustCompile(`<div class="chart" id="([^"]+)"[^>]*>`)
	consoleErr = regexp.MustCompile(`(?m)^.*CONSOLE.*(Uncaught|Error).*$`)
)

// TestHTMLReportInChromium renders the HTML report of real short runs in
// headless Chromium: no JavaScript error, every chart drawn as SVG, and a
// screenshot kept in the test's artifact directory (go test -artifacts).
func TestHTMLReportInChromium(t *testing.T) {
	t.Parallel()
	bin := chromium(t)
	runs := []struct {
		name string
		args []string
	}{
		{"null", []string{"null", "--duration", "600ms", "--warmup", "100ms", "--progress", "100ms", "--rate", "20000", "--repeat", "2"}},
		{"kv", []string{"kv", "--engines", "map,pebble", "--ops", "set,get", "--duration", "300ms", "--warmup", "50ms", "--progress", "100ms"}},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			dir := t.TempDir()
			html := filepath.Join(dir, r.name+".html")
			code, _, stderr := run(t, append(r.args, "--quiet", "--json", filepath.Join(dir, r.name+".json"), "--html", html)...)
			if code == 2 && strings.Contains(stderr, "not built yet") {
				t.Skipf("the %s family is not built yet", r.name)
			}
			if code != 0 {
				t.Fatalf("dbmeter %s: exit %d: %s", strings.Join(r.args, " "), code, stderr)
			}
			dom, logs := browse(t, bin, html, "--dump-dom")
			if m := consoleErr.FindAllString(logs, -1); len(m) > 0 {
				t.Errorf("JavaScript errors:\n%s", strings.Join(m, "\n"))
			}
			if !strings.Contains(dom, `data-charts="drawn"`) {
				t.Errorf("the page did not report all charts drawn; its error box: %s", between(dom, `id="dbmeter-errors"`, "</pre>"))
			}
			divs := chartDiv.FindAllStringSubmatch(dom, -1)
			if len(divs) < 4 {
				t.Errorf("%d charts, want at least 4 (throughput, percentiles, over time)", len(divs))
			}
			for _, d := range divs {
				if !strings.Contains(d[0], `data-drawn="yes"`) {
					t.Errorf("chart %s has not drawn: %s", d[1], d[0])
				}
				if svg := between(dom, `id="`+d[1]+`"`, "</svg>"); !strings.Contains(svg, "<svg") || !strings.Contains(svg, "<path") {
					t.Errorf("chart %s has no SVG paths", d[1])
				}
			}
			shot := filepath.Join(t.ArtifactDir(), r.name+"-report.png")
			browse(t, bin, html, "--window-size=1400,2400", "--screenshot="+shot)
			if st, err := os.Stat(shot); err != nil || st.Size() < 10_000 {
				t.Errorf("screenshot %s missing or blank: %v", shot, err)
			}
			t.Logf("screenshot: %s", shot)
		})
	}
}

// between returns s from the first from to the next to after it.
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], to)
	if j < 0 {
		return s[i:]
	}
	return s[i : i+j+len(to)]
}
