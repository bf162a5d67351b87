package merge

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// The upper-bound warning becomes a note naming the merged interval log
// when one is written; every other warning stays a warning.
func TestMergedNotes(t *testing.T) {
	t.Parallel()
	m := &Merged{Warnings: []string{"shards started 2s apart", IntervalUpperBound}}
	tests := []struct {
		name, hdrLog string
		want         []string
	}{
		{"no interval log", "", []string{"warning: shards started 2s apart", "warning: " + IntervalUpperBound}},
		{"an interval log", "all.hlog", []string{"warning: shards started 2s apart",
			"note: the tables' interval p50/p99 are the highest shard's (an upper bound); all.hlog holds each interval's exact merged histogram"}},
	}
	for _, tt := range tests {
		if got := m.Notes(tt.hdrLog); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Notes = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Arguments that cannot be merged are the user's mistake, said in one line.
func TestFilesRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		hdrLog string
		want   string
	}{
		{"logs without an output log", []string{"a.json", "a.hlog"}, "", "give one interval log (*.hlog) per shard document and {HDRLog} OUT.hlog"},
		{"an output log without logs", []string{"a.json"}, "all.hlog", "give one interval log"},
		{"a missing document", []string{"/nonexistent/a.json"}, "", "/nonexistent/a.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Files(context.Background(), tt.args, tt.hdrLog)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err) {
				t.Errorf("Files: %v; want a usage error with %q", err, tt.want)
			}
		})
	}
}
