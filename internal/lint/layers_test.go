package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// familyLayers is what each package inside a family may import of its
// own family: the layers of pg from its scripts and drivers up to the
// command, of kv from its engines up to the matrix, and of ch from the
// shared connection layer (internal/ch: DSNs, versions, options, workers)
// and the protocol stand-in up through the tables' data (event, numbers;
// query's presets read the numbers table's columns) to its two commands,
// insert and query, which never import each other; nullserver puts both
// their tables in the stand-in.
// A package of a family missing here fails the rule until it is given its
// place, so a new one is placed on purpose.
var familyLayers = map[string][]string{
	"internal/pg/script":      nil,
	"internal/pg/driver":      {"internal/pg/script"},
	"internal/pg/server":      {"internal/pg/driver"},
	"internal/pg/initdb":      {"internal/pg/server"},
	"internal/pg/serverstats": {"internal/pg/server"},
	"internal/pg/bench":       {"internal/pg/driver", "internal/pg/script"},
	"internal/pg/pgtest":      {"internal/pg/initdb", "internal/pg/server"},
	"internal/pg": {"internal/pg/bench", "internal/pg/driver", "internal/pg/initdb", "internal/pg/script",
		"internal/pg/server", "internal/pg/serverstats"},
	"internal/kv/engine":        nil,
	"internal/kv/engine/kvtest": {"internal/kv/engine"},
	"internal/kv/workload":      {"internal/kv/engine"},
	"internal/kv/kvycsb":        {"internal/kv/engine"},
	"internal/kv":               {"internal/kv/engine", "internal/kv/kvycsb", "internal/kv/workload"},
	"internal/ch":               nil,
	"internal/ch/standin":       nil,
	"internal/ch/event":         {"internal/ch"},
	"internal/ch/numbers":       {"internal/ch", "internal/ch/event"},
	"internal/ch/insert":        {"internal/ch", "internal/ch/event", "internal/ch/numbers"},
	"internal/ch/query":         {"internal/ch", "internal/ch/numbers"},
	"internal/ch/query/chv2":    {"internal/ch", "internal/ch/query"},
	"internal/ch/query/clients": {"internal/ch", "internal/ch/query", "internal/ch/query/chv2"},
	"internal/ch/chtest":        {"internal/ch", "internal/ch/standin"},
	"internal/ch/nullserver":    {"internal/ch/insert", "internal/ch/query", "internal/ch/standin"},
}

// layeredFamilies are the families whose packages familyLayers places.
var layeredFamilies = []string{"internal/ch", "internal/kv", "internal/pg"}

// layerViolations lists, as "file: imports dep", every import inside a
// layered family that familyLayers does not allow.
func layerViolations(files []file) []string {
	var out []string
	for _, f := range files {
		fam := family(f.pkg)
		if !slices.Contains(layeredFamilies, fam) {
			continue
		}
		allowed, placed := familyLayers[f.pkg]
		for _, imp := range imports(f) {
			dep, ok := strings.CutPrefix(imp, module)
			if !ok || family(dep) != fam {
				continue
			}
			if !placed {
				out = append(out, fmt.Sprintf("%s: imports %s, but %s has no place in familyLayers", f.path, dep, f.pkg))
			} else if !slices.Contains(allowed, dep) {
				out = append(out, fmt.Sprintf("%s: imports %s, which %s may not", f.path, dep, f.pkg))
			}
		}
	}
	return out
}

// TestFamilyLayers: inside a family, imports flow one way, from the
// command down to the drivers and scripts, as familyLayers says.
func TestFamilyLayers(t *testing.T) {
	for _, v := range layerViolations(sources(t)) {
		t.Error(v)
	}
}

// TestFamilyLayersCatchOne: the rule fails on a driver that imports the
// bench above it, on ch query importing ch insert, and on a package the
// table does not place, and not on an import the table allows.
func TestFamilyLayersCatchOne(t *testing.T) {
	root := t.TempDir()
	plantFile(t, root, "internal/pg/driver/planted.go", "package driver\n\nimport _ \"github.com/dbmeter/dbmeter/internal/pg/bench\"\n")
	plantFile(t, root, "internal/pg/bench/planted.go", "package bench\n\nimport _ \"github.com/dbmeter/dbmeter/internal/pg/driver\"\n")
	plantFile(t, root, "internal/pg/newpkg/planted.go", "package newpkg\n\nimport _ \"github.com/dbmeter/dbmeter/internal/pg/driver\"\n")
	plantFile(t, root, "internal/ch/query/planted.go", "package query\n\nimport _ \"github.com/dbmeter/dbmeter/internal/ch/insert\"\n")
	plantFile(t, root, "internal/ch/insert/planted.go", "package insert\n\nimport _ \"github.com/dbmeter/dbmeter/internal/ch/event\"\n")
	files, err := sourcesIn(root)
	if err != nil {
		t.Fatal(err)
	}
	got := layerViolations(files)
	want := []string{
		"internal/ch/query/planted.go: imports internal/ch/insert, which internal/ch/query may not",
		"internal/pg/driver/planted.go: imports internal/pg/bench, which internal/pg/driver may not",
		"internal/pg/newpkg/planted.go: imports internal/pg/driver, but internal/pg/newpkg has no place in familyLayers",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("layerViolations over the planted tree = %q, want %q", got, want)
	}
}

// plantFile writes src at path below root, making its folders.
func plantFile(t *testing.T, root, path, src string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}
