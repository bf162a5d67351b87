package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// study publish and study board refuse what they cannot do in one line
// each (exit 2): no output named, a file that cannot be read, a document
// that breaks the schema (a line per problem, then one that counts them).
func TestStudyPublishAndBoardUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"schema": "dbmeter-study/v1", "steps": "none"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args  []string
		want  string
		lines int
	}{
		{[]string{"study", "publish"}, "study publish needs one study result document, got 0", 1},
		{[]string{"study", "publish", bad}, "study publish needs -o OUT.json", 1},
		{[]string{"study", "publish", filepath.Join(dir, "none.json"), "-o", filepath.Join(dir, "o.json")}, "cannot read", 1},
		{[]string{"study", "publish", bad, "-o", filepath.Join(dir, "o.json")}, "refused: it breaks the result schema (1 problem, each on a line above)", 2},
		{[]string{"study", "board", dir}, "study board needs --html FILE or --md FILE", 1},
		{[]string{"study", "board", t.TempDir(), "--md", filepath.Join(dir, "b.md")}, "no study result document given", 1},
		{[]string{"study", "board", filepath.Join(dir, "none"), "--html", filepath.Join(dir, "b.html")}, "cannot read", 1},
		{[]string{"study", "board", bad, "--html", filepath.Join(dir, "b.html")}, "no document to put on a board: every one of the 1 was refused", 1},
	}
	for _, tt := range tests {
		code, _, stderr := run(t, tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != tt.lines {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %d lines with %q", strings.Join(tt.args, " "), code, stderr, tt.lines, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "o.json")); err == nil {
		t.Error("publish wrote a copy of a document it refused")
	}
}
