package study

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dbmeter/dbmeter/internal/report"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden/ from the recorded documents")

// builtinIDs' recorded documents are testdata/recorded/ID.json.gz: each the
// result document of one run of the built-in study's quick form against
// the project's servers (docs/development.md says how to record them
// again). Recorded once, they let the unit tier render and judge every
// study in milliseconds.
func recorded(t *testing.T, id string) *Document {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "recorded", id+".json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var doc Document
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	if err := doc.Upgrade(); err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return &doc
}

// TestGoldenStudies renders every built-in study, as the tree has it now
// (its tables, claims and environments), on its recorded quick run, as
// text, Markdown and HTML, and compares each with testdata/golden/. A
// change to the rendering, the verdicts or a built-in file shows here as
// a diff to review; go test -update rewrites the golden files. The study
// file the recorded document holds is not used: a step the file has now
// and the recording lacks shows as "did not run", the sign to record
// again.
func TestGoldenStudies(t *testing.T) {
	t.Parallel()
	for _, id := range builtinIDs() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			s, err := Load(id)
			if err != nil {
				t.Fatal(err)
			}
			p := Page(Evaluate(s, recorded(t, id)))
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
			page = *bytes.NewBuffer(withoutECharts(page.Bytes()))
			golden(t, id+".txt", text.Bytes())
			golden(t, id+".md", md.Bytes())
			golden(t, id+".html", page.Bytes())
			checkRendered(t, s, text.String())
		})
	}
}

// TestGoldenCompare puts the two recorded runs of s5 side by side as
// study compare does (testdata/recorded/s5.json.gz and s5b.json.gz, two
// runs of its quick form on one machine) and compares the output with
// testdata/golden/s5-compare.txt: every cell of s5 with its interval, their
// geometric mean and what the machine explains.
func TestGoldenCompare(t *testing.T) {
	t.Parallel()
	s, err := Load("s5")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	WriteComparison(&out, Compare(s, recorded(t, "s5"), recorded(t, "s5b")))
	golden(t, "s5-compare.txt", out.Bytes())
	for _, want := range []string{"95% interval", "geometric mean of B/A", "cells faster in B"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("study compare lacks %q:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "–"); n < 100 {
		t.Errorf("%d cells with an interval, want every one of s5's (>100):\n%s", n, out.String())
	}
}

// checkRendered holds what the quick studies' end-to-end test checked of
// their output: every claim has a verdict, and every published row is
// printed beside a measured one.
func checkRendered(t *testing.T, s *Study, out string) {
	t.Helper()
	if verdicts := len(verdictLine.FindAllString(out, -1)); verdicts != len(s.Claims) {
		t.Errorf("%d verdicts for %d claims:\n%s", verdicts, len(s.Claims), out)
	}
	rows := 0
	for _, tb := range s.Tables {
		rows += len(tb.PublishedRows())
	}
	if got := strings.Count(out, " published "); got < rows {
		t.Errorf("%d published rows printed, want %d", got, rows)
	}
	if strings.Count(out, " here ") < rows {
		t.Errorf("fewer measured rows than published ones:\n%s", out)
	}
}

// withoutECharts replaces the page's embedded charting library (the one
// script of over 100 kB) by a comment: the golden file holds the page's
// own markup and data, not a megabyte of a vendored library.
func withoutECharts(page []byte) []byte {
	return scriptElem.ReplaceAllFunc(page, func(m []byte) []byte {
		if len(m) > 100_000 {
			return []byte("<script>/* echarts */</script>")
		}
		return m
	})
}

var scriptElem = regexp.MustCompile(`(?s)<script>.*?</script>`)

// verdictLine is a claim's line in the text: "  [holds] id: text".
var verdictLine = regexp.MustCompile(`(?m)^  \[[a-z ]+\] [^:]+: `)

// golden compares got with testdata/golden/name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/study -run TestGolden -update creates it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got; go test ./internal/study -run TestGolden -update rewrites it):\n%s", name, diff)
	}
}
