package cli

import (
	"compress/gzip"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/null"
	"github.com/dbmeter/dbmeter/internal/pg/bench"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/storage"
)

// declaredFor is the declaration of family.
func declaredFor(t *testing.T, family string) result.FamilyRecord {
	t.Helper()
	for _, f := range result.Families() {
		if f.Family == family {
			return f
		}
	}
	t.Fatalf("result.Families declares no family %q", family)
	return result.FamilyRecord{}
}

// Every setting a command records in its runs is one its family declares
// (result.Families), which is what study files are checked against: a
// flag renamed without its declaration fails here, not as a study's empty
// cells.
func TestRecordedSettingsAreDeclared(t *testing.T) {
	root := commandTree(Env{Getenv: func(string) string { return "" }}, &profiler{})
	for _, tt := range []struct {
		family string
		path   []string
	}{{"kv", []string{"kv"}}, {"ch", []string{"ch", "insert"}}, {"ch", []string{"ch", "query"}}, {"null", []string{"null"}}} {
		c, _, err := root.Find(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		fs := pflag.NewFlagSet("all", pflag.ContinueOnError)
		fs.AddFlagSet(c.Flags())
		fs.AddFlagSet(c.InheritedFlags())
		declared := declaredFor(t, tt.family).Settings
		for name := range flagParams(fs) {
			if !result.Matches(name, declared) {
				t.Errorf("dbmeter %v records setting %s in its runs; %s does not declare it in result.Families", tt.path, name, tt.family)
			}
		}
	}
	var pf pgFlags
	pf.bind(pflag.NewFlagSet("pg", pflag.ContinueOnError))
	for name := range flagParams(pf.fs, "help", "dsn", "host", "port", "username", "latency-limit") {
		if !result.Matches(name, declaredFor(t, "pg").Settings) {
			t.Errorf("dbmeter pg records setting %s in its runs; pg does not declare it in result.Families", name)
		}
	}
}

// The extra figures and phases each family declares for merging are the
// ones result.Families lists, both ways.
func TestFamilyFiguresAreDeclared(t *testing.T) {
	with := func(ds ...result.Declarations) []string {
		all := result.Declarations{}
		for _, d := range ds {
			maps.Copy(all, d)
		}
		return slices.Sorted(maps.Keys(all))
	}
	sorted := func(l []string) []string { return slices.Sorted(slices.Values(l)) }
	for family, got := range map[string][]string{
		"kv":   with(kv.FigureDeclarations()),
		"pg":   with(bench.FigureDeclarations(), storage.FigureDeclarations()),
		"ch":   with(insert.FigureDeclarations(), query.FigureDeclarations()),
		"null": with(null.FigureDeclarations()),
	} {
		if want := sorted(declaredFor(t, family).Extras); !slices.Equal(got, want) {
			t.Errorf("%s's figure declarations %v; result.Families lists %v", family, got, want)
		}
	}
	phases := sorted(append(append(slices.Clone(insert.Phases), query.Phases...), extworker.Client))
	if want := sorted(declaredFor(t, "ch").Phases); !slices.Equal(phases, want) {
		t.Errorf("ch's phases %v; result.Families lists %v", phases, want)
	}
}

// The recorded documents the golden tests render, real runs of every
// family, carry only declared settings, phases and figures: what a family
// writes itself (kv's preloaded_keys, pg's query_mode) is declared too.
func TestRecordedDocumentsAreDeclared(t *testing.T) {
	files, _ := filepath.Glob("../*/testdata/recorded/*.json.gz")
	if len(files) == 0 {
		t.Fatal("no recorded documents under internal/*/testdata/recorded")
	}
	fams := map[string]result.FamilyRecord{}
	for _, f := range result.Families() {
		fams[f.Family] = f
	}
	for _, file := range files {
		var doc any
		readGzipJSON(t, file, &doc)
		eachRun(doc, func(r map[string]any) {
			fam, ok := fams[r["family"].(string)]
			if !ok {
				t.Errorf("%s: a run of family %q, which result.Families does not declare", file, r["family"])
				return
			}
			for kind, list := range map[string][]string{"params": fam.Settings, "phases": fam.Phases, "extra": fam.Extras} {
				m, _ := r[kind].(map[string]any)
				for k := range m {
					if kind == "params" {
						k = result.SettingName(k) // a dbmeter/v1 document's flag spelling, as result.Read reads it
					}
					if !result.Matches(k, list) {
						t.Errorf("%s: a %s run records %s %q, which result.Families does not declare", file, fam.Family, kind, k)
					}
				}
			}
		})
	}
}

func readGzipJSON(t *testing.T, file string, v any) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(z).Decode(v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// eachRun calls fn with every run of a result document, wherever it sits
// (a study's document holds its steps' documents).
func eachRun(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		if runs, ok := x["runs"].([]any); ok {
			for _, r := range runs {
				if m, ok := r.(map[string]any); ok && m["family"] != nil {
					fn(m)
				}
			}
		}
		for _, c := range x {
			eachRun(c, fn)
		}
	case []any:
		for _, c := range x {
			eachRun(c, fn)
		}
	}
}
