package cli

import (
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestHelpFilesUsed: every file of help/ is the long help or the examples
// of a command, so that none is left behind when a command goes or takes
// another name (a missing one fails every test that builds the tree).
func TestHelpFilesUsed(t *testing.T) {
	t.Parallel()
	var shown []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		shown = append(shown, c.Long, c.Example)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(commandTree(Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}, &profiler{}))
	files, err := fs.Glob(helpTexts, "help/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("help files: %v, %v", files, err)
	}
	for _, f := range files {
		first, _, _ := strings.Cut(help(strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt")), "\n")
		used := false
		for _, s := range shown {
			used = used || strings.HasPrefix(s, first)
		}
		if !used {
			t.Errorf("%s: no command shows it (its first line %q); remove it or use it", f, first)
		}
	}
}
