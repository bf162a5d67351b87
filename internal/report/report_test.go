package report

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

func TestGoldenReports(t *testing.T) {
	t.Parallel()
	srcs := []Source{{Name: "mixed.json", Doc: mixedDoc(t)}}
	two := []Source{{Name: "base.json", Doc: fakeDoc(t, 2, 1)}, {Name: "new.json", Doc: fakeDoc(t, 2, 1.5)}}
	tests := []struct {
		golden string
		srcs   []Source
		write  func(*bytes.Buffer, []Source) error
	}{
		{"mixed.md", srcs, func(b *bytes.Buffer, s []Source) error { return Markdown(b, s) }},
		{"mixed.csv", srcs, func(b *bytes.Buffer, s []Source) error { return CSV(b, s) }},
		{"mixed.html", srcs, func(b *bytes.Buffer, s []Source) error { return renderHTML(b, s, "/* echarts */") }},
		{"two.md", two, func(b *bytes.Buffer, s []Source) error { return Markdown(b, s) }},
		{"two.html", two, func(b *bytes.Buffer, s []Source) error { return renderHTML(b, s, "/* echarts */") }},
		{"compare.txt", two, func(b *bytes.Buffer, s []Source) error { return Compare(b, s[0], s[1]) }},
		{"gobench.txt", two, func(b *bytes.Buffer, s []Source) error { return GoBench(b, s) }},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := tt.write(&b, tt.srcs); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.golden, b.Bytes())
		})
	}
}

// TestHTMLSelfContained checks the page fetches nothing and that the
// embedded script cannot end its own <script> element early.
func TestHTMLSelfContained(t *testing.T) {
	t.Parallel()
	if strings.Contains(strings.ToLower(echartsJS), "</script") {
		t.Fatal("echarts.min.js contains </script: it cannot be inlined as is")
	}
	var b bytes.Buffer
	if err := HTML(&b, []Source{{Name: "r.json", Doc: mixedDoc(t)}}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{`src="http`, `href="http`, `<link `, `@import`, `src="//`} {
		if strings.Contains(page, bad) {
			t.Errorf("the page refers to something outside itself: %q", bad)
		}
	}
	if !strings.Contains(page, echartsJS[:200]) {
		t.Error("the page does not embed ECharts")
	}
}

func TestCompareVerdicts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		reps     int
		speed    float64
		want     []string // each in the output
		dontWant []string
	}{
		{"too few repetitions", 3, 2, []string{"~ (n too small: 3+3, need ≥4 repetitions each)"}, []string{"better ("}},
		{"faster new engine", 6, 2, []string{"better (p=0.002 n=6)", "-50.00%"}, []string{"n too small"}},
		{"no change", 6, 1, []string{"~ (p=1.000 n=6)"}, []string{"better (", "worse ("}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			base, new := Source{Name: "a", Doc: fakeDoc(t, tt.reps, 1)}, Source{Name: "b", Doc: fakeDoc(t, tt.reps, tt.speed)}
			if err := Compare(&b, base, new); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("compare output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.dontWant {
				if strings.Contains(out, w) {
					t.Errorf("compare output has %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestCompareUnmatched(t *testing.T) {
	t.Parallel()
	a, b := fakeDoc(t, 1, 1), fakeDoc(t, 1, 1)
	b.Runs = b.Runs[:2]
	for i := range b.Runs {
		b.Runs[i].Params["seed"] = "99" // not part of what a run measured
	}
	var out bytes.Buffer
	if err := Compare(&out, Source{Name: "a", Doc: a}, Source{Name: "b", Doc: b}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"kv map get", "only in base: kv pebble get", "only in base: kv pebble set"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
}

// TestCompareKnob: two settings of one engine's knob are compared with
// --vary, the engines it does not apply to are left out, and with nothing
// compared Compare fails.
func TestCompareKnob(t *testing.T) {
	t.Parallel()
	base, knob := fakeDoc(t, 4, 1), fakeDoc(t, 4, 2)
	for i := range base.Runs {
		base.Runs[i].Params["param"] = "[]"
		knob.Runs[i].Params["param"] = "[pebble.x=2]"
		if base.Runs[i].Target == "pebble" {
			base.Runs[i].Params["pebble.x"], knob.Runs[i].Params["pebble.x"] = "1", "2"
		}
	}
	tests := []struct {
		name    string
		knobs   []string
		want    []string
		wantErr string
	}{
		{"without --vary nothing matches", nil, []string{"only in new:  kv pebble get"}, "nothing compared"},
		{"an unknown knob compares nothing", []string{"bolt.y"}, nil, "no run has bolt.y among its params"},
		{"the knob's engine only", []string{"pebble.x"}, []string{"kv pebble get", "pebble.x 1 → 2", "better (", "not compared, as pebble.x does not apply to them: kv map get"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := Compare(&out, Source{Name: "a", Doc: base}, Source{Name: "b", Doc: knob}, tt.knobs...)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("Compare error %v, want %q", err, tt.wantErr)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestGoBenchReadByBenchstat parses the gobench output with benchfmt and
// runs benchstat itself over two documents.
func TestGoBenchReadByBenchstat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, speed := range []float64{1, 2} {
		var b bytes.Buffer
		if err := GoBench(&b, []Source{{Name: "x", Doc: fakeDoc(t, 6, speed)}}); err != nil {
			t.Fatal(err)
		}
		r := benchfmt.NewReader(bytes.NewReader(b.Bytes()), "x")
		n := 0
		for r.Scan() {
			switch rec := r.Result().(type) {
			case *benchfmt.SyntaxError:
				t.Fatalf("benchfmt rejects a line: %v", rec)
			case *benchfmt.Result:
				n++
				if got := string(rec.Name.Full()); !strings.HasPrefix(got, "Kv/target=") {
					t.Errorf("benchmark name %q, want Kv/target=…", got)
				}
				if rec.GetConfig("family") != "kv" {
					t.Errorf("config family = %q, want kv", rec.GetConfig("family"))
				}
			}
		}
		if n != 24 {
			t.Errorf("benchfmt read %d results, want 24 (2 engines × 2 ops × 6 reps)", n)
		}
		os.WriteFile(filepath.Join(dir, []string{"base.txt", "new.txt"}[i]), b.Bytes(), 0o644)
	}
	servertest.E2E(t, "builds and runs benchstat over them")
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH: cannot build benchstat")
	}
	bin := filepath.Join(dir, "benchstat")
	if out, err := exec.Command("go", "build", "-o", bin, "golang.org/x/perf/cmd/benchstat").CombinedOutput(); err != nil {
		t.Fatalf("build benchstat: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "base.txt", "new.txt")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, out)
	}
	for _, w := range []string{"ops/s", "p99-sec", "Kv/target=pebble/workload=get-2", "+100.00% (p=0.002 n=6)"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("benchstat output lacks %q:\n%s", w, out)
		}
	}
}

// A warning every repetition of a cell gave is one note naming the
// repetitions; one repetition's own warning keeps its number.
func TestNotesFoldRepetitions(t *testing.T) {
	run := func(rep int, warnings ...string) result.Run {
		return result.Run{Target: "map", Workload: "ycsb-e", Repeat: rep, Warnings: warnings}
	}
	doc := &result.Document{Runs: []result.Run{run(1, "not supported"), run(2, "not supported", "slow"), run(3, "not supported")}}
	got := strings.Join(Notes(doc), "\n")
	want := "map/ycsb-e (repetitions 1, 2, 3): not supported\nmap/ycsb-e #2: slow"
	if got != want {
		t.Errorf("notes:\n%s\nwant:\n%s", got, want)
	}
}
