package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// kv's defaults: every cell seven times, 100 ms measured after 30 ms of
// warm-up, with a progress snapshot every tenth of the cell, so that even
// a short cell has a spread and a curve over time; --progress and --repeat
// still win.
func TestKVDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		reps     int
		duration float64
		progress string
	}{
		{"defaults", nil, 7, 0.1, "10ms"},
		{"longer cell", []string{"--duration", "500ms", "--repeat", "1"}, 1, 0.5, "50ms"},
		{"progress given", []string{"--progress", "150ms", "--repeat", "1"}, 1, 0.1, "150ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kv.json")
			args := append([]string{"kv", "--engines", "map:memory", "--ops", "get", "--quiet", "--no-disk-probe", "--json", path}, tt.args...)
			if code, _, stderr := run(t, args...); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc result.Document
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Runs) != tt.reps {
				t.Fatalf("%d runs, want %d repetitions", len(doc.Runs), tt.reps)
			}
			for _, r := range doc.Runs {
				if r.DurationS < tt.duration-0.01 || r.DurationS > tt.duration+0.05 {
					t.Errorf("repetition %d measured %.3fs, want %.1fs", r.Repeat, r.DurationS, tt.duration)
				}
				// Not the count of intervals: a process stalled past the
				// window's end (a busy machine) gets its last ones as one.
				if got, _ := doc.ProgressInterval(&r); got.String() != tt.progress {
					t.Errorf("repetition %d: progress every %s, want %s", r.Repeat, got, tt.progress)
				}
			}
		})
	}
}
