package kv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
)

// Every engine's name makes a directory for its template and its cells:
// a name may hold ':' or '/' (cznic/kv's template once failed to be made).
func TestDirPatternEveryEngine(t *testing.T) {
	root := t.TempDir()
	for _, name := range engine.Names() {
		for _, prefix := range []string{"", "template-"} {
			dir, err := os.MkdirTemp(root, prefix+dirPattern(name))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if filepath.Dir(dir) != root {
				t.Errorf("%s: %s is not directly under %s", name, dir, root)
			}
		}
	}
}
