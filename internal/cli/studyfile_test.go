package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStudyFileFiveMistakes: a study file with five mistakes planted gets
// five lines in one run, each with file, line and field, and one line
// that counts them and names where the format is described; one mistake
// is counted in the singular.
func TestStudyFileFiveMistakes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := nullStudy
	for _, r := range [][2]string{
		{"title: the null target", "titel: the null target"},
		{"step: delay", "step: dleay"},
		{"rows: workload", "rowz: workload"},
		{"unit: ops/s", "unit: ops"},
		{`cells: [[tp, noop, "null"]]`, `cells: [[tp, nop, "null"]]`},
	} {
		if !strings.Contains(bad, r[0]) {
			t.Fatalf("%q is not in the study", r[0])
		}
		bad = strings.Replace(bad, r[0], r[1], 1)
	}
	file := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"study", "show", file}, {"study", "run", file}} {
		code, stdout, stderr := run(t, cmd...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		want := []string{
			file + `:2: titel: unknown key "titel": did you mean title?`,
			file + `:10: tables[0].step: "dleay" is not a step of this study (did you mean delay?)`,
			file + `:11: tables[0].rowz: unknown key "rowz": did you mean rows?`,
			file + `:14: tables[0].unit: "ops" is not a unit (did you mean ops/s?)`,
			file + `:23: claims[0].cells[0]: "nop" is not a row of table tp`,
			file + ": 5 mistakes in the study file, each on a line above; the format is described in docs/studies.md",
		}
		if code != exitUsage || stdout != "" || len(lines) != len(want) {
			t.Fatalf("%s: exit %d, stdout %q, %d lines; want exit 2 and %d lines:\n%s", strings.Join(cmd, " "), code, stdout, len(lines), len(want), stderr)
		}
		for i, w := range want {
			if !strings.HasPrefix(lines[i], "dbmeter: "+w) {
				t.Errorf("line %d: %q, want it to start %q", i, lines[i], "dbmeter: "+w)
			}
		}
	}
	one := filepath.Join(dir, "one.yaml")
	if err := os.WriteFile(one, []byte(strings.Replace(nullStudy, "step: delay", "step: dleay", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, stderr := run(t, "study", "show", one); !strings.Contains(stderr, ": 1 mistake in the study file") {
		t.Errorf("one mistake is not said in the singular:\n%s", stderr)
	}
}
