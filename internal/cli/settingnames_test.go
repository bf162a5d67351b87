package cli

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Every flag of every family command is recorded under its declared name
// (no "-": result.SettingName), and the reports head that setting's
// column with the flag as the user types it (result.Label): the name in
// the document and the heading in the tables are one declaration apart,
// never a second hand-kept list.
func TestSettingNamesAndLabels(t *testing.T) {
	root := commandTree(Env{Getenv: func(string) string { return "" }}, &profiler{})
	sets := map[string]*pflag.FlagSet{}
	for _, path := range [][]string{{"kv"}, {"ch", "insert"}, {"ch", "query"}, {"null"}} {
		c, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		fs := pflag.NewFlagSet("all", pflag.ContinueOnError)
		fs.AddFlagSet(c.Flags())
		fs.AddFlagSet(c.InheritedFlags())
		sets[c.CommandPath()] = fs
	}
	var pf pgFlags
	pf.bind(pflag.NewFlagSet("pg", pflag.ContinueOnError))
	sets["dbmeter pg"] = pf.fs
	flagged := map[string]bool{}
	for cmd, fs := range sets {
		params, observed, decl := flagSettings(fs)
		for name := range decl {
			flagged[name] = true
		}
		fs.VisitAll(func(f *pflag.Flag) {
			name := result.SettingName(f.Name)
			_, isParam := params[name]
			_, isObserved := observed[name]
			if _, ok := decl[name]; !ok || isParam == isObserved {
				t.Errorf("%s --%s: recorded as param %v, observed %v, declared %v; want it under %q, once", cmd, f.Name, isParam, isObserved, ok, name)
			}
			if got := result.Label(name); isParam && got != f.Name {
				t.Errorf("%s --%s: recorded as %s, headed %q; want the flag's spelling", cmd, f.Name, name, got)
			}
		})
		for name := range decl {
			if name != result.SettingName(name) {
				t.Errorf("%s declares %q, spelled with a -", cmd, name)
			}
		}
	}
	// A setting no flag sets, one a family names itself (preloaded_keys),
	// is headed by its name: result.Label's list of them is complete.
	for _, name := range result.DeclaredSettings(result.Families()) {
		if !flagged[name] && !strings.Contains(name, "*") && result.Label(name) != name {
			t.Errorf("%s, which no flag sets, is headed %q; want its name", name, result.Label(name))
		}
	}
}
