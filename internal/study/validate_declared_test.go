package study

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// studyFiles are the built-in studies and the ones under docs/studies, by
// the name Parse is given and their text.
func studyFiles(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := builtin.ReadDir("builtin")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := builtin.ReadFile("builtin/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		out["builtin/"+e.Name()] = data
	}
	docs, _ := filepath.Glob("../../docs/studies/*.yaml")
	for _, f := range docs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	return out
}

// renamed returns the families' declarations with the setting, phase or
// extra figure old declared as new instead.
func renamed(kind, old, new string) []result.FamilyRecord {
	fams := result.Families()
	for i := range fams {
		list := map[string]*[]string{"setting": &fams[i].Settings, "phase": &fams[i].Phases, "extra": &fams[i].Extras}[kind]
		*list = slices.Clone(*list)
		for j, n := range *list {
			if n == old {
				(*list)[j] = new
			}
		}
	}
	return fams
}

// Every study dbmeter ships names only settings, phases and figures the
// families declare; renaming one that a study selects by or shows fails
// that study's validation at each line that names it, and at no other,
// so a rename cannot leave a study's cells silently empty.
func TestStudiesNameDeclaredSettings(t *testing.T) {
	files := studyFiles(t)
	for name, data := range files {
		if _, err := parse(name, data, result.Families()); err != nil {
			t.Errorf("%s as shipped: %v", name, err)
		}
	}
	tests := []struct{ kind, old, new, ref string }{
		{"setting", "batch", "rows_per_insert", "params.batch"},
		{"setting", "pool_max_idle", "max_idle", "params.pool_max_idle"},
		{"setting", "select_rows", "rows_selected", "params.select_rows"},
		{"setting", "tcp_nodelay", "nodelay", "params.tcp_nodelay"},
		{"setting", "shape", "kind", "params.shape"},
		{"setting", "decode", "decoding", "params.decode"},
		{"setting", "prepared", "bind", "params.prepared"},
		{"phase", "decode", "scan", "phase.decode."},
		{"phase", "build", "make", "phase.build."},
		{"extra", "conn_reuse_pct", "reuse_pct", "extra.conn_reuse_pct"},
	}
	for _, tt := range tests {
		t.Run(tt.old, func(t *testing.T) {
			fams := renamed(tt.kind, tt.old, tt.new)
			failed := 0
			for name, data := range files {
				var want []int // the lines of the tables' fields that name it
				for i, l := range strings.Split(string(data), "\n") {
					if k := strings.TrimSpace(l); strings.Contains(k, tt.ref) && (strings.HasPrefix(k, "rows:") || strings.HasPrefix(k, "columns:") || strings.HasPrefix(k, "figure:") || strings.HasPrefix(k, tt.ref)) {
						want = append(want, i+1)
					}
				}
				_, err := parse(name, data, fams)
				var es Errors
				if len(want) == 0 {
					if err != nil {
						t.Errorf("%s names no %s, yet fails: %v", name, tt.ref, err)
					}
					continue
				}
				failed++
				if !errors.As(err, &es) {
					t.Fatalf("%s with %s %q renamed %q: err %v, want a mistake at lines %v", name, tt.kind, tt.old, tt.new, err, want)
				}
				var got []int
				for _, e := range es {
					if e.File != name || !strings.Contains(e.Msg, tt.old) {
						t.Errorf("%s: mistake %q does not name the file and %q", name, e, tt.old)
					}
					got = append(got, e.Line)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s with %s %q renamed: mistakes at lines %v, want %v:\n%v", name, tt.kind, tt.old, got, want, err)
				}
			}
			if failed == 0 {
				t.Errorf("no shipped study names %s: the row tests nothing", tt.ref)
			}
		})
	}
}

// A study file's own mistake: a setting, phase or extra figure no family
// records, each said at its line with the nearest declared name; and a
// setting of another family than the table's steps run (kv's fsync on a
// ch table), which would select no run either.
func TestUndeclaredNamesInAStudyFile(t *testing.T) {
	s3, err := builtin.ReadFile("builtin/s3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ from, to, want string }{
		{"columns: params.batch", "columns: params.fsync", `"params.fsync": no ch step records a setting "fsync"`},
		{"figure: mean", "figure: phase.sned.p99", `"phase.sned": no ch step records a phase "sned" (did you mean send?)`},
		{"figure: mean", "figure: extra.rows_per_second", `"extra.rows_per_second": no ch step records the extra figure "rows_per_second"`},
	} {
		text := strings.Replace(string(s3), tt.from, tt.to, 1)
		if text == string(s3) {
			t.Fatalf("s3.yaml has no %q to replace", tt.from)
		}
		line := strings.Count(text[:strings.Index(text, tt.to)], "\n") + 1
		_, err := Parse("s3.yaml", []byte(text))
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 || es[0].Line != line || !strings.Contains(es[0].Msg, tt.want) {
			t.Errorf("%s: %v, want one mistake at s3.yaml:%d saying %s", tt.to, err, line, tt.want)
		}
	}

	data, err := builtin.ReadFile("builtin/s3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "columns: params.batch", "columns: params.bach", 1)
	_, err = Parse("s3.yaml", []byte(text))
	if err == nil || !strings.Contains(err.Error(), `"params.bach": no ch step records a setting "bach" (did you mean batch?)`) {
		t.Errorf("params.bach: err %v, want it named with batch suggested", err)
	}
	line := strings.Count(text[:strings.Index(text, "params.bach")], "\n") + 1
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 || es[0].Line != line || es[0].File != "s3.yaml" {
		t.Errorf("params.bach: %v, want one mistake at s3.yaml:%d", err, line)
	}
}
