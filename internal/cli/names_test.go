package cli

import (
	"slices"
	"strings"
	"testing"
)

func TestParseNames(t *testing.T) {
	t.Parallel()
	known := []string{"badger", "bbolt", "pebble", "map:memory"}
	tests := []struct {
		list    string
		want    []string
		wantErr string
	}{
		{list: "pebble", want: []string{"pebble"}},
		{list: "pebble, badger,pebble", want: []string{"pebble", "badger"}}, // order kept, duplicates dropped
		{list: "all", want: known},
		{list: "pebbel", wantErr: `unknown --engines value "pebbel" (did you mean "pebble"?); known: badger, bbolt, pebble, map:memory`},
		{list: "map", wantErr: `did you mean "map:memory"`},
		{list: "zzzzzzzz", wantErr: `unknown --engines value "zzzzzzzz"; known:`}, // too far for a guess
		{list: " , ", wantErr: "--engines is empty"},
	}
	for _, tt := range tests {
		got, err := parseNames("engines", tt.list, known)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitCodeOf(err) != exitUsage {
				t.Errorf("parseNames(%q) error = %v, want usage error containing %q", tt.list, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("parseNames(%q) = %v, %v; want %v", tt.list, got, err, tt.want)
		}
	}
}

func FuzzParseNames(f *testing.F) {
	f.Add("pebble,badger")
	f.Add("all")
	f.Fuzz(func(t *testing.T, list string) {
		known := []string{"a", "bb", "ccc"}
		got, err := parseNames("x", list, known)
		if err != nil {
			if exitCodeOf(err) != exitUsage || strings.Contains(err.Error(), "\n") {
				t.Fatalf("parseNames(%q): %v is not a one-line usage error", list, err)
			}
			return
		}
		for _, n := range got {
			if !slices.Contains(known, n) {
				t.Fatalf("parseNames(%q) returned unknown %q", list, n)
			}
		}
	})
}
