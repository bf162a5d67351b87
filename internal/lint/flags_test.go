package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// flagSpelled finds a flag as a user types it: two dashes and a word, not
// inside a longer run of dashes or a word (a CSS variable's var(--fg) is
// not in Go strings, but "a--b" or "----" are not flags either), or two
// dashes before a format verb, which spells a flag from a name at run time.
var flagSpelled = regexp.MustCompile(`(?:^|[^-\w])(--(?:[a-z][a-z0-9]*(?:-[a-z0-9]+)*|%[sqv]))`)

// othersFlags are flags of other programs that dbmeter starts, which a
// package must spell to start them: not dbmeter's flags, so not the CLI's.
var othersFlags = map[string][]string{
	"internal/ch/insert/clients.go": {"--api"},         // SeasClick's worker script
	"internal/ch/chtest/outage.go":  {"--config-file"}, // clickhouse-server
}

// flagStrings lists, as "file:line: --flag", every dbmeter flag spelled
// in a string literal outside the CLI (internal/cli, cmd/), less the
// other programs' flags above.
func flagStrings(files []file) map[string][]string {
	out := map[string][]string{}
	for _, f := range files {
		if f.pkg == "internal/cli" || strings.HasPrefix(f.pkg, "internal/cli/") || f.pkg == "cmd" || strings.HasPrefix(f.pkg, "cmd/") {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range flagSpelled.FindAllStringSubmatch(s, -1) {
				if slices.Contains(othersFlags[f.path], m[1]) {
					continue
				}
				out[f.path] = append(out[f.path], fmt.Sprintf("%s: %s", f.fset.Position(lit.Pos()), m[1]))
			}
			return true
		})
	}
	return out
}

// TestOnlyTheCLISpellsFlags: families and the core name a setting by its
// field ({Field}); only the CLI knows which flag sets it for the command
// that runs (two commands share a family's messages and not their flags).
func TestOnlyTheCLISpellsFlags(t *testing.T) {
	found := flagStrings(sources(t))
	for _, path := range slices.Sorted(maps.Keys(found)) {
		for _, s := range found[path] {
			t.Errorf("%s: a flag spelled outside the CLI; say {Field} and let the CLI spell it (a study step or message: use the study.Flags the CLI gives)", s)
		}
	}
}

// TestOnlyTheCLISpellsFlagsCatchesOne: the rule fails on a "--something"
// planted in a family, and on a "--dsn" a study would put on a step's
// command line, and not on the same string in the CLI, in a comment, or
// as a word that only contains dashes.
func TestOnlyTheCLISpellsFlagsCatchesOne(t *testing.T) {
	root := t.TempDir()
	plant := func(path, src string) { plantFile(t, root, path, src) }
	plant("internal/kv/planted.go", "package kv\n\n// --comment is fine\nvar planted = \"raise --something\"\nvar fine = \"a--b ---- x-y\"\nvar built = \"cannot honour --%s\"\n")
	plant("internal/cli/planted.go", "package cli\n\nvar planted = \"raise --something\"\n")
	plant("internal/kv/planted_test.go", "package kv\n\nvar planted = \"raise --something\"\n")
	plant("internal/study/planted.go", "package study\n\nvar planted = []string{\"--dsn\", \"postgres://\"}\n") // a step's command line too
	files, err := sourcesIn(root)
	if err != nil {
		t.Fatal(err)
	}
	got := flagStrings(files)
	want := map[string][]string{
		"internal/kv/planted.go":    {filepath.Join(root, "internal/kv/planted.go") + ":4:15: --something", filepath.Join(root, "internal/kv/planted.go") + ":6:13: --%s"},
		"internal/study/planted.go": {filepath.Join(root, "internal/study/planted.go") + ":3:24: --dsn"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("flagStrings over the planted tree = %v, want %v", got, want)
	}
}
