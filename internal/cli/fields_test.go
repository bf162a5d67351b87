package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/load"
)

// TestFieldsAreSpelled: every {Field} a package writes in a message, and
// every field it asks whether the user gave (given("Field")), is a field
// the CLI spells as a flag of the commands that use the package, so no
// message reaches the user with a field's name in braces and no question
// is answered "not given" for want of a flag.
func TestFieldsAreSpelled(t *testing.T) {
	t.Parallel()
	pgFlagSet := func() *pflag.FlagSet {
		var f pgFlags
		fs := pflag.NewFlagSet("pg", pflag.ContinueOnError)
		f.bind(fs)
		return fs
	}
	runFlagSet := func() *pflag.FlagSet {
		var rf runFlags
		var sf searchFlags
		fs := pflag.NewFlagSet("null", pflag.ContinueOnError)
		rf.bind(fs, load.DefaultConfig())
		sf.bind(fs, &rf)
		return fs
	}
	kvFlagSet := newKVCmd(Env{}).Flags()
	// ch's commands have its --connect-timeout too (a persistent flag).
	chFlagSet := func(name string) *pflag.FlagSet {
		cmd, _, err := newCHCmd(Env{}).Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		cmd.InheritedFlags() // merges the parent's flags into cmd.Flags()
		return cmd.Flags()
	}
	// calibrate's advice names the run commands' flags beside its own.
	calibrateAll := fieldFlags(newCalibrateCmd(Env{}).Flags())
	maps.Copy(calibrateAll, calibrateAdvice())
	tests := []struct {
		pkgs   []string
		fields map[string]string
	}{
		{[]string{"pg", "pg/script", "pg/bench", "pg/driver", "pg/initdb", "pg/server", "pg/serverstats"}, fieldFlags(pgFlagSet())},
		{[]string{"load"}, fieldFlags(runFlagSet())},
		{[]string{"capacity"}, withCount(fieldFlags(chFlagSet("query")), "count")},
		{[]string{"capacity"}, withCount(fieldFlags(pgFlagSet()), "transactions")},
		{[]string{"ch", "ch/insert"}, fieldFlags(chFlagSet("insert"))},
		{[]string{"ch", "ch/query", "ch/query/clients", "ch/query/chv2"}, fieldFlags(chFlagSet("query"))},
		{[]string{"kv", "kv/engine", "kv/workload", "kv/kvycsb"}, fieldFlags(kvFlagSet)},
		{[]string{"sink"}, fieldFlags(runFlagSet())},
		{[]string{"merge"}, fieldFlags(newMergeCmd(Env{}).Flags())},
		{[]string{"metrics"}, fieldFlags(chFlagSet("query"))},
		{[]string{"calibrate"}, calibrateAll},
	}
	for i, tt := range tests {
		t.Run(strings.Join(tt.pkgs, ",")+"/"+strconv.Itoa(i), func(t *testing.T) {
			for _, pkg := range tt.pkgs {
				files, _ := filepath.Glob(filepath.Join("..", pkg, "*.go"))
				for _, path := range files {
					if strings.HasSuffix(path, "_test.go") {
						continue
					}
					for _, u := range fieldUses(t, path) {
						if _, ok := tt.fields[u.field]; !ok {
							t.Errorf("%s: %s: %s is not a field the CLI spells", u.pos, u.what, u.field)
						}
					}
				}
			}
		})
	}
}

// A fieldUse is a field a package names: {Field} in a string, or the
// argument of given("Field").
type fieldUse struct {
	pos         token.Position
	field, what string
}

// fieldUses lists the fields the Go file at path names.
func fieldUses(t *testing.T, path string) []fieldUse {
	t.Helper()
	tokens := regexp.MustCompile(`\{([A-Z][A-Za-z]*)\}`)
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []fieldUse
	ast.Inspect(file, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isGiven(call.Fun) && len(call.Args) == 1 {
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				out = append(out, fieldUse{fset.Position(lit.Pos()), s, "given(" + lit.Value + ")"})
			}
			return true
		}
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, _ := strconv.Unquote(lit.Value)
		for _, m := range tokens.FindAllStringSubmatch(s, -1) {
			out = append(out, fieldUse{fset.Position(lit.Pos()), m[1], m[0]})
		}
		return true
	})
	return out
}

// isGiven says whether fn is a call of given or Given (a function, a
// method or a field), the families' question whether the user gave a
// setting.
func isGiven(fn ast.Expr) bool {
	switch f := fn.(type) {
	case *ast.Ident:
		return f.Name == "given" || f.Name == "Given"
	case *ast.SelectorExpr:
		return f.Sel.Name == "given" || f.Sel.Name == "Given"
	}
	return false
}

func hasField(types []any, field string) bool {
	for _, v := range types {
		if _, ok := reflect.TypeOf(v).FieldByName(field); ok {
			return true
		}
	}
	return false
}

// withCount is fields with {Count} as the capacity search spells it for a
// family whose operation count is countFlag (searchFlags.search).
func withCount(fields map[string]string, countFlag string) map[string]string {
	fields["Count"] = countFlag
	return fields
}
