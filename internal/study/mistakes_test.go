package study

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

func TestErrorsSummary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int
		want string
	}{
		{1, "my.yaml: 1 mistake in the study file, on the line above; the format is described in docs/studies.md"},
		{3, "my.yaml: 3 mistakes in the study file, each on a line above; the format is described in docs/studies.md"},
	}
	for _, tt := range tests {
		err := make(Errors, tt.n).Summary("my.yaml")
		if err == nil || err.Error() != tt.want || !usage.Is(err) {
			t.Errorf("%d mistakes: %v, want the usage error %q", tt.n, err, tt.want)
		}
	}
}

// LoadChecked says every mistake of a file and of its command lines in one
// pass, in line order, then the line that sums them up; a study without
// any loads.
func TestLoadChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("id: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	accept := func([]string) error { return nil }
	refuse := func(args []string) error { return errors.New("refused " + args[0]) }
	tests := []struct {
		name     string
		idOrFile string
		parse    func([]string) error
		mistakes bool
		want     string // in the summary; "" loads
	}{
		{"a built-in study", "s5", accept, false, ""},
		{"its command lines refused", "s5", refuse, true, "s5: "},
		{"not YAML", broken, accept, true, broken + ": 1 mistake in the study file, on the line above"},
		{"no such study", "s9", accept, false, `no built-in study "s9"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, es, err := LoadChecked(tt.idOrFile, Flags{Server: "-D", Servers: "-D"}, tt.parse)
			if tt.want == "" {
				if err != nil || s == nil || len(es) > 0 {
					t.Fatalf("LoadChecked: %v, %d mistakes", err, len(es))
				}
				return
			}
			if s != nil || err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err) || (len(es) > 0) != tt.mistakes {
				t.Errorf("LoadChecked: study %v, %d mistakes, %v; want a usage error with %q (mistakes listed: %v)", s != nil, len(es), err, tt.want, tt.mistakes)
			}
			for i := 1; i < len(es); i++ {
				if es[i].Line < es[i-1].Line {
					t.Errorf("mistakes out of line order: %v", es)
				}
			}
		})
	}
}
