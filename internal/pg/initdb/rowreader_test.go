package initdb

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// The progress lines of a data load, as pgbench prints them: every
// 100,000 rows, or with -q every 5 seconds and at the end. Without a
// server: the rows come from a generator and are only counted. (Before
// study steps ran as processes of their own, s4's quick `pg -i -q` was the
// only test of the -q lines, and its process's coverage is not counted.)
func TestRowReaderProgress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		rows    int64
		quiet   bool
		started time.Duration // how long before the load the run began
		want    []int64       // the rows each progress line reports
	}{
		{"every 100,000 rows and the last", 250000, false, 0, []int64{100000, 200000, 250000}},
		{"the last row on a round count once", 200000, false, 0, []int64{100000, 200000}},
		{"-q: under 5 s only the end", 2500, true, 0, []int64{2500}},
		{"-q: past 5 s at the next thousand, then 5 s later or the end", 2500, true, 10 * time.Second, []int64{1000, 2500}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			r := &rowReader{
				rows:   tt.rows,
				row:    func(b []byte, _ int64) []byte { return append(b, 'r') },
				start:  time.Now().Add(-tt.started),
				log:    &log,
				report: true,
				quiet:  tt.quiet,
			}
			data, err := io.ReadAll(r)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if int64(len(data)) != tt.rows {
				t.Errorf("read %d bytes, want one a row: %d", len(data), tt.rows)
			}
			lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("%d progress lines, want %d:\n%s", len(lines), len(tt.want), log.String())
			}
			for i, n := range tt.want {
				if prefix := fmt.Sprintf("%d of %d tuples (%d%%) done", n, tt.rows, n*100/tt.rows); !strings.HasPrefix(lines[i], prefix) {
					t.Errorf("line %d: %q, want it to begin %q", i+1, lines[i], prefix)
				}
			}
		})
	}
}
