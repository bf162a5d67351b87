package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// unlisted returns the packages (directories holding non-test Go files)
// that the layout table does not name, either as `pkg` or below a
// `parent/...` it names; the table is the architecture's map, so a
// package missing from it is one the reader cannot place.
func unlisted(files []file, table string) []string {
	var out []string
	for _, f := range files {
		pkg := filepath.ToSlash(f.pkg)
		if !strings.HasPrefix(pkg, "internal/") || slices.Contains(out, pkg) {
			continue
		}
		named := strings.Contains(table, "`"+pkg+"`")
		for parent := pkg; !named && parent != "internal"; parent = filepath.ToSlash(filepath.Dir(parent)) {
			named = strings.Contains(table, "`"+parent+"/...`")
		}
		if !named {
			out = append(out, pkg)
		}
	}
	return out
}

// TestLayoutTableNamesEveryPackage: docs/development.md's layout table
// names every internal package, so that adding or moving one means
// saying where it sits.
func TestLayoutTableNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("../../docs/development.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range unlisted(sources(t), string(doc)) {
		t.Errorf("%s is not in docs/development.md's layout table: add it to the row of its layer", pkg)
	}
}

// TestLayoutTableCatchesOne: a planted package the table does not name is
// reported, and one below a parent named with /... is not.
func TestLayoutTableCatchesOne(t *testing.T) {
	root := t.TempDir()
	for _, path := range []string{"internal/newpkg/a.go", "internal/kv/engine/a.go"} {
		plantFile(t, root, path, "package a\n")
	}
	files, err := sourcesIn(root)
	if err != nil {
		t.Fatal(err)
	}
	got := unlisted(files, "| families | `internal/kv/...` |")
	if !slices.Equal(got, []string{"internal/newpkg"}) {
		t.Errorf("unlisted = %v, want [internal/newpkg]", got)
	}
}
