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

	"github.com/dbmeter/dbmeter/internal/calibrate"
	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/kv/kvycsb"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg"
	"github.com/dbmeter/dbmeter/internal/sink"
	"github.com/dbmeter/dbmeter/internal/ycsb"
)

// TestFieldsAreSpelled: every {Field} a package writes in a message is a
// field the CLI spells as a flag of the commands that use the package, so
// no message reaches the user with a field's name in braces; and every
// field the CLI maps is a real field of the package's types and a real
// flag.
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
	calibrateFlagSet := newCalibrateCmd(Env{}).Flags()
	calibrateFlagSet.AddFlagSet(runFlagSet())
	calibrateAll := calibrateFields()
	maps.Copy(calibrateAll, calibrateAdvice())
	// merge has only some of the outputs' flags; commandSpelling spells those.
	mergeFlagSet := newMergeCmd(Env{}).Flags()
	mergeFields := outputFields()
	maps.DeleteFunc(mergeFields, func(_, name string) bool { return mergeFlagSet.Lookup(name) == nil })
	tests := []struct {
		pkgs   []string
		fields map[string]string
		flags  *pflag.FlagSet
		types  []any
	}{
		{[]string{"pg", "pg/script", "pg/bench", "pg/driver", "pg/initdb", "pg/server", "pg/serverstats"}, pgFields(), pgFlagSet(), []any{pg.Command{}, load.Config{}, sink.Options{}, capacity.Options{}}},
		{[]string{"load"}, runFields(), runFlagSet(), []any{load.Config{}, load.Options{}}},
		{[]string{"capacity"}, searchFields("count"), runFlagSet(), []any{capacity.Options{}, load.Config{}}},
		{[]string{"capacity"}, searchFields("transactions"), pgFlagSet(), []any{capacity.Options{}, load.Config{}}},
		{[]string{"ch", "ch/insert"}, chInsertFields(), chFlagSet("insert"), []any{insert.Command{}, insert.Config{}, load.Config{}, ch.Reach{}, capacity.Options{}}},
		{[]string{"ch", "ch/query", "ch/query/clients", "ch/query/chv2"}, chQueryFields(), chFlagSet("query"),
			[]any{query.Command{}, query.Config{}, query.Worker{}, query.Dataset{}, load.Config{}, ch.Reach{}, capacity.Options{}}},
		{[]string{"kv", "kv/engine", "kv/workload", "kv/kvycsb"}, kvFields(), kvFlagSet, []any{kv.MatrixOptions{}, kv.Matrix{}, workload.Spec{}, kvycsb.Spec{}, ycsb.Record{}, load.Config{}, load.Options{}}},
		{[]string{"sink"}, outputFields(), runFlagSet(), []any{sink.Options{}}},
		{[]string{"merge"}, mergeFields, mergeFlagSet, []any{sink.Options{}}},
		{[]string{"metrics"}, chQueryFields(), chFlagSet("query"), []any{query.Command{}, query.Config{}, query.Worker{}, query.Dataset{}, load.Config{}, ch.Reach{}, capacity.Options{}}},
		{[]string{"calibrate"}, calibrateAll, calibrateFlagSet, []any{calibrate.Limits{}, load.Config{}, capacity.Options{}}},
	}
	tokens := regexp.MustCompile(`\{([A-Z][A-Za-z]*)\}`)
	for _, tt := range tests {
		t.Run(strings.Join(tt.pkgs, ",")+"/"+tt.flags.Name(), func(t *testing.T) {
			for field, flag := range tt.fields {
				if !hasField(tt.types, field) {
					t.Errorf("maps %s, which none of %T has", field, tt.types)
				}
				if tt.flags.Lookup(flag) == nil {
					t.Errorf("maps %s to --%s, which dbmeter %s does not have", field, flag, tt.flags.Name())
				}
			}
			for _, pkg := range tt.pkgs {
				files, _ := filepath.Glob(filepath.Join("..", pkg, "*.go"))
				for _, path := range files {
					if strings.HasSuffix(path, "_test.go") {
						continue
					}
					fset := token.NewFileSet()
					file, err := parser.ParseFile(fset, path, nil, 0)
					if err != nil {
						t.Fatal(err)
					}
					ast.Inspect(file, func(n ast.Node) bool {
						lit, ok := n.(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							return true
						}
						s, _ := strconv.Unquote(lit.Value)
						for _, m := range tokens.FindAllStringSubmatch(s, -1) {
							if _, ok := tt.fields[m[1]]; !ok {
								t.Errorf("%s: {%s} is not a field the CLI spells", fset.Position(lit.Pos()), m[1])
							}
						}
						return true
					})
				}
			}
		})
	}
}

func hasField(types []any, field string) bool {
	for _, v := range types {
		if _, ok := reflect.TypeOf(v).FieldByName(field); ok {
			return true
		}
	}
	return false
}
