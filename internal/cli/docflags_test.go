package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// docFlag is a long flag as a doc writes it: --name, outside a word
// ("pg_stat--x" is not one) and not a --- rule.
var docFlag = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`)

// foreignFlags are the flags the docs name that belong to other programs,
// each with the program: pgbench and clickhouse-benchmark (compared
// with), go, git, apt-get, kubectl, curl and the scripts.
var foreignFlags = map[string]string{
	"api":              "the PHP worker, workers/php/seasclick.php --api=insert|block",
	"seasclick-source": "scripts/deps.sh",
	"debug":            "pgbench's -d/--debug, which dbmeter pg leaves out",
	"for":              "kubectl wait --for",
	"timeout":          "kubectl wait --timeout",
	"from-literal":     "kubectl create secret --from-literal",
	"pool":             "ch query's --pool-* flags named together (--pool-max-open, …)",
	"wrokers":          "the typo docs/studies.md shows a study file's error for",
	"flag":             "the README's sentence about this test",
	// chromium's, in the HTML report's rendering test (docs/reports.md)
	"headless": "chromium", "no-sandbox": "chromium", "no-first-run": "chromium", "user-data-dir": "chromium",
	"disable-gpu": "chromium", "disable-sync": "chromium", "disable-quic": "chromium",
	"disable-component-update": "chromium", "disable-background-networking": "chromium",
}

// docFlagsOf returns each --flag text names that no command of root has,
// with the line it is on.
func docFlagsOf(root *cobra.Command, text string) []string {
	known := map[string]bool{"help": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add := func(f *pflag.Flag) { known[f.Name] = true }
		c.Flags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	var bad []string
	for n, line := range strings.Split(text, "\n") {
		for _, m := range docFlag.FindAllStringSubmatch(line, -1) {
			if name := m[1]; !known[name] && foreignFlags[name] == "" {
				bad = append(bad, "line "+strconv.Itoa(n+1)+": --"+name)
			}
		}
	}
	return bad
}

// TestDocFlagsExist: every --flag the README and docs/*.md name is a flag
// of some dbmeter command (or another program's, listed in foreignFlags),
// so a renamed or removed flag cannot live on in the documentation.
func TestDocFlagsExist(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"../../README.md"}, files...)
	root := commandTree(Env{Getenv: func(string) string { return "" }}, &profiler{})
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range docFlagsOf(root, string(b)) {
			t.Errorf("%s %s: no dbmeter command has this flag", filepath.Base(f), bad)
		}
	}
	if len(files) < 5 {
		t.Errorf("found %d documents, want the README and docs/*.md", len(files))
	}
}

// TestDocFlagsCheckFails shows the check failing: a document naming a
// flag no command has (as after a flag is removed), beside ones that
// exist, is reported, and only that one.
func TestDocFlagsCheckFails(t *testing.T) {
	t.Parallel()
	root := commandTree(Env{Getenv: func(string) string { return "" }}, &profiler{})
	doc := "Run `dbmeter kv --engines pebble --fsync both`.\n\nThe old `--removed-flag 3` is gone; `pg -c 4 --driver pq` is not.\n"
	got := docFlagsOf(root, doc)
	if !slices.Equal(got, []string{"line 3: --removed-flag"}) {
		t.Errorf("docFlagsOf = %q, want only line 3's --removed-flag", got)
	}
	// Removing a real flag from the tree makes its mention fail.
	kv, _, err := root.Find([]string{"kv"})
	if err != nil {
		t.Fatal(err)
	}
	kv.ResetFlags()
	if got := docFlagsOf(root, "dbmeter kv --fsync both"); !slices.Equal(got, []string{"line 1: --fsync"}) {
		t.Errorf("after kv lost its flags, docFlagsOf = %q, want --fsync reported", got)
	}
}
