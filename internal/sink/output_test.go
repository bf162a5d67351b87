package sink

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// WriteOutputs writes only what was asked for, "-" to stdout; a file that
// cannot be created is a usage error naming its flag, a write that fails
// is the run's error naming the path.
func TestWriteOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	tests := []struct {
		name       string
		outs       []Output
		wrote      bool
		stdout     string
		file, body string // a file written and its content
		err        string
		usage      bool
	}{
		{"none asked", []Output{{Flag: "--md", Write: text("md")}}, false, "", "", "", "", false},
		{"stdout", []Output{{Flag: "--md", Path: "-", Write: text("md")}}, true, "md", "", "", "", false},
		{"a file", []Output{{Flag: "--html", Path: filepath.Join(dir, "a.html"), Write: text("<p>")}}, true, "", "a.html", "<p>", "", false},
		{"missing directory", []Output{{Flag: "--csv", Path: filepath.Join(dir, "no", "a.csv"), Write: text("x")}}, true, "", "", "", "cannot write --csv " + filepath.Join(dir, "no", "a.csv") + ": no such file or directory", true},
		{"write fails", []Output{{Flag: "--json", Path: filepath.Join(dir, "b.json"), Write: func(io.Writer) error { return errors.New("disk full") }}}, true, "", "", "", "write " + filepath.Join(dir, "b.json") + ": disk full", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout bytes.Buffer
			wrote, err := WriteOutputs(&stdout, tt.outs...)
			if wrote != tt.wrote || stdout.String() != tt.stdout || errString(err) != tt.err || (err != nil && usage.Is(err) != tt.usage) {
				t.Errorf("WriteOutputs = %v, %v (usage %v), stdout %q; want %v, %q (usage %v), %q", wrote, err, usage.Is(err), stdout.String(), tt.wrote, tt.err, tt.usage, tt.stdout)
			}
			if tt.file != "" {
				if b, _ := os.ReadFile(filepath.Join(dir, tt.file)); string(b) != tt.body {
					t.Errorf("%s holds %q, want %q", tt.file, b, tt.body)
				}
			}
		})
	}
}
