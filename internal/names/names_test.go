package names_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/names"
)

func TestParse(t *testing.T) {
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
		// Every bad name at once, each with its guess (issue 35: only the first was said).
		{list: "pebbles,bbolt,badgr", wantErr: `unknown --engines values "pebbles" (did you mean "pebble"?), "badgr" (did you mean "badger"?); known: badger, bbolt, pebble, map:memory`},
	}
	for _, tt := range tests {
		got, err := names.Parse("--engines", tt.list, known)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Parse(%q) error = %v, want an error containing %q", tt.list, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("names.Parse(%q) = %v, %v; want %v", tt.list, got, err, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("pebble,badger")
	f.Add("all")
	f.Fuzz(func(t *testing.T, list string) {
		known := []string{"a", "bb", "ccc"}
		got, err := names.Parse("x", list, known)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("names.Parse(%q): %v is not one line", list, err)
			}
			return
		}
		for _, n := range got {
			if !slices.Contains(known, n) {
				t.Fatalf("names.Parse(%q) returned unknown %q", list, n)
			}
		}
	})
}
