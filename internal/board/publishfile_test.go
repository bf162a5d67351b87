package board

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// PublishFile refuses in one usage line naming the file what cannot be
// published, with the schema's problems beside it, and publishes the rest
// saying what it replaced.
func TestPublishFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text, sum := tinyStudy(t, nil)
	doc := studyDoc(t, machine{name: "x", cpuNs: 5e6, map_: reps(1000, 20), btr: reps(500, 10)}, text, sum)
	doc.Steps[0].Result.Env.Disk.Path = "/home/alice/kv"
	good := write(t, dir, "good", doc)
	notJSON := filepath.Join(dir, "garbage.json")
	if err := os.WriteFile(notJSON, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := write(t, dir, "broken", map[string]any{"schema": "dbmeter-study/v1", "steps": "none"})
	tests := []struct {
		name, path, want string
		problems         int
	}{
		{"published", good, "", 0},
		{"missing", filepath.Join(dir, "none.json"), "cannot read " + filepath.Join(dir, "none.json"), 0},
		{"not JSON", notJSON, notJSON + ": refused: it breaks the result schema (1 problem", 1},
		{"breaks the schema", broken, broken + ": refused: it breaks the result schema (1 problem, each on a line above)", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, p, problems, err := PublishFile(tt.path, Identity{Hostname: "buildhost-42", User: "carol"}, "")
			if len(problems) != tt.problems {
				t.Errorf("%d problems %v, want %d", len(problems), problems, tt.problems)
			}
			if tt.want != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !usage.Is(err) || strings.Contains(err.Error(), "\n") || out != nil {
					t.Errorf("PublishFile: %v, %d bytes; want one usage line starting %q and no copy", err, len(out), tt.want)
				}
				return
			}
			if err != nil || len(out) == 0 || strings.Contains(string(out), "/home/alice") {
				t.Fatalf("PublishFile: %v, %d bytes (home path kept: %v)", err, len(out), strings.Contains(string(out), "/home/alice"))
			}
			lines := p.Lines()
			if len(lines) != len(p.Removed) || len(lines) == 0 || !strings.HasPrefix(lines[0], "replaced ") {
				t.Errorf("Lines = %q for %d kinds replaced", lines, len(p.Removed))
			}
		})
	}
}
