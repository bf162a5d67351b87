package sink

import (
	"os"
	"path/filepath"
	"testing"
)

// Writable refuses what cannot be written (a missing or read-only
// directory, a directory), accepts the rest, and leaves no trace: an
// existing file unchanged, a new one removed again.
func TestWritable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.json")
	if err := os.WriteFile(kept, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "ro")
	if err := os.Mkdir(readOnly, 0o555); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"stdout", "-", ""},
		{"new file", filepath.Join(dir, "new.json"), ""},
		{"existing file", kept, ""},
		{"device", os.DevNull, ""},
		{"missing directory", filepath.Join(dir, "no", "x.json"), "no such file or directory"},
		{"a directory", dir, "it is a directory"},
		{"read-only directory", filepath.Join(readOnly, "x.json"), "permission denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "read-only directory" && os.Geteuid() == 0 {
				t.Skip("root writes into a read-only directory")
			}
			err := Writable(tt.path)
			if got := errString(err); got != tt.want {
				t.Errorf("Writable(%s) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
	if b, _ := os.ReadFile(kept); string(b) != "old" {
		t.Errorf("the check changed an existing file: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.json")); !os.IsNotExist(err) {
		t.Errorf("the check left the file it made: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
