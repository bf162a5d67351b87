package study

import (
	"strings"
	"testing"
)

// TestS3AuthorsTableAndColumns reads s3's recorded quick run: every insert
// step filled a table of ENGINE = Null, as the author's insert_test, its
// Nagle steps of one-byte rows; every select step read the eight integer
// columns (preset numbers-int), as the author's select scripts.
func TestS3AuthorsTableAndColumns(t *testing.T) {
	t.Parallel()
	doc := recorded(t, "s3")
	checked := map[string]int{}
	for _, sr := range doc.Steps {
		if sr.Result == nil || len(sr.Result.Runs) == 0 {
			t.Errorf("step %s: no runs recorded", sr.ID)
			continue
		}
		for _, r := range sr.Result.Runs {
			engine, _ := r.Setting("table_engine")
			schema, _ := r.Setting("schema")
			preset, _ := r.Setting("preset")
			switch {
			case strings.HasPrefix(sr.ID, "insert-"):
				checked["insert"]++
				if engine != "Null" || schema != "numbers" {
					t.Errorf("%s: table engine %q, schema %q; want Null and numbers", sr.ID, engine, schema)
				}
			case strings.HasPrefix(sr.ID, "nodelay-"):
				checked["nodelay"]++
				if engine != "Null" || schema != "byte" {
					t.Errorf("%s: table engine %q, schema %q; want Null and byte", sr.ID, engine, schema)
				}
			case strings.HasPrefix(sr.ID, "select-"):
				checked["select"]++
				if preset != "numbers-int" {
					t.Errorf("%s: preset %q, want numbers-int", sr.ID, preset)
				}
			}
		}
	}
	if checked["insert"] < 18 || checked["nodelay"] < 4 || checked["select"] < 6 {
		t.Errorf("runs checked %v: want the 18 insert, 4 Nagle and 6 select steps' runs", checked)
	}
}
