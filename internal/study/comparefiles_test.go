package study

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// recordedFile writes the recorded document name (testdata/recorded) to
// a plain file, as study run writes it.
func recordedFile(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "recorded", name+".json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+".json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Two runs of one study compare; runs of two studies are refused in one
// line naming both; a file that is not a study's document is the user's
// mistake too.
func TestCompareFiles(t *testing.T) {
	t.Parallel()
	s5, s5b, s4 := recordedFile(t, "s5"), recordedFile(t, "s5b"), recordedFile(t, "s4")
	notDoc := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(notDoc, []byte(`{"schema":"dbmeter/v1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		a, b string
		want string // "" compares
	}{
		{"one study", s5, s5b, ""},
		{"two studies", s5, s4, " is study s5 and " + s4 + " is study s4: compare runs of one study"},
		{"not a study's document", s5, notDoc, "a study result document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := CompareFiles(tt.a, tt.b)
			if tt.want == "" {
				if err != nil || c == nil {
					t.Fatalf("CompareFiles: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("CompareFiles: %v; want one usage line with %q", err, tt.want)
			}
		})
	}
}
