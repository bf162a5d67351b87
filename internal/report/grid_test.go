package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// One renderer per table: the terminal, Markdown and HTML reports render
// the same grids, so a kv run with a cell the engine cannot run, a cell
// with errors and fsync on (its disk line and a write faster than the disk
// allows) shows the same titles, lines, rows, marks and warnings in all
// three.
func TestKVSameTablesInEveryFormat(t *testing.T) {
	t.Parallel()
	errored := kvRun("pebble", "set", "false", 400000, 1600)
	errored.Errors = 3
	unsupported := kvRun("map", "ycsb-e", "false", 0, 0)
	unsupported.Extra = map[string]float64{"not_supported": 1}
	fast := kvRun("pebble", "set", "true", 900000, 300)
	fast.Workers, fast.Ops = 2, 1000
	fast.Params["fsync_switch"] = "pebble.Sync write option (WAL fsync)"
	doc := &result.Document{Runs: []result.Run{
		errored, kvRun("map", "set", "false", 300000, 1700),
		kvRun("pebble", "ycsb-e", "false", 20000, 50000), unsupported,
		kvRun("map", "batchset", "false", 3000, 100000),
		fast, kvRun("map", "set", "true", 1800, 115000),
	}}
	doc.Env.Disk = result.Disk{Path: "/data/kv", FS: "ext4", Device: "nvme0n1", Fsync: ssdProbe}
	srcs := []Source{{Name: "r.json", Doc: doc}}
	grids := Tables(srcs, 0)
	if len(grids) != 4 {
		t.Fatalf("%d tables, want 4 (throughput and latency, fsync off and on)", len(grids))
	}
	var marks []string
	for _, g := range grids {
		for _, r := range g.Rows {
			for _, c := range r {
				if c == "not supported" || strings.HasSuffix(c, "!") {
					marks = append(marks, c)
				}
			}
		}
	}
	if len(marks) < 2 || len(grids[2].Warnings) == 0 || len(grids[2].Lines) < 2 {
		t.Fatalf("the grids lack the marks (%q), the disk line or the warning:\n%+v", marks, grids)
	}
	sameInEveryFormat(t, doc, grids)
}

// sameInEveryFormat checks that the terminal, Markdown and HTML reports of
// doc show every title, line, row (with its marks) and warning of grids.
func sameInEveryFormat(t *testing.T, doc *result.Document, grids []Grid) {
	t.Helper()
	srcs := []Source{{Name: "r.json", Doc: doc}}
	var text, md, page bytes.Buffer
	if err := Text(&text, doc); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, srcs); err != nil {
		t.Fatal(err)
	}
	if err := renderHTML(&page, srcs, ""); err != nil {
		t.Fatal(err)
	}
	// Each format's spelling of a row of cells.
	formats := []struct {
		name string
		out  string
		row  func(cells []string) string
		line func(s string) string
	}{
		{"terminal", text.String(), func(cells []string) string {
			q := make([]string, len(cells))
			for i, c := range cells {
				q[i] = regexp.QuoteMeta(c)
			}
			return `(?m)^` + strings.Join(q, ` +`) + `$`
		}, regexp.QuoteMeta},
		{"Markdown", md.String(), func(cells []string) string {
			return regexp.QuoteMeta("| " + strings.Join(cells, " | ") + " |")
		}, regexp.QuoteMeta},
		{"HTML", html.UnescapeString(page.String()), func(cells []string) string {
			q := make([]string, len(cells))
			for i, c := range cells {
				q[i] = `<t[dh][^>]*>` + regexp.QuoteMeta(c) + `</t[dh]>`
			}
			return strings.Join(q, "")
		}, regexp.QuoteMeta},
	}
	for _, f := range formats {
		for _, g := range grids {
			for _, s := range append(append([]string{g.Title}, g.Lines...), g.Warnings...) {
				if !regexp.MustCompile(f.line(s)).MatchString(f.out) {
					t.Errorf("%s lacks %q", f.name, s)
				}
			}
			for _, r := range append([][]string{g.Header}, g.Rows...) {
				if !regexp.MustCompile(f.row(r)).MatchString(f.out) {
					t.Errorf("%s lacks the row %q of %q", f.name, r, g.Title)
				}
			}
		}
		if t.Failed() {
			t.Fatalf("%s:\n%s", f.name, f.out)
		}
	}
}
