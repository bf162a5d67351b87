package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/pg"
)

// TestPGFieldsAreSpelled: every {Field} the pg family writes in a message
// is a field of pg.Command that the CLI spells as a flag of dbmeter pg, so
// no message reaches the user with a field's name in braces; and every
// field the CLI maps is a real field and a real flag.
func TestPGFieldsAreSpelled(t *testing.T) {
	t.Parallel()
	var f pgFlags
	fs := pflag.NewFlagSet("pg", pflag.ContinueOnError)
	f.bind(fs)
	fields := pgFields()
	cmd := reflect.TypeOf(pg.Command{})
	for field, flag := range fields {
		if _, ok := cmd.FieldByName(field); !ok {
			t.Errorf("pgFields maps %s, which pg.Command does not have", field)
		}
		if fs.Lookup(flag) == nil {
			t.Errorf("pgFields maps %s to --%s, which dbmeter pg does not have", field, flag)
		}
	}
	tokens := regexp.MustCompile(`\{([A-Z][A-Za-z]*)\}`)
	files, _ := filepath.Glob("../pg/*.go")
	more, _ := filepath.Glob("../pg/script/*.go")
	for _, path := range append(files, more...) {
		if filepath.Ext(path) != ".go" || len(path) > 8 && path[len(path)-8:] == "_test.go" {
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
				if _, ok := fields[m[1]]; !ok {
					t.Errorf("%s: {%s} is not a field the CLI spells", fset.Position(lit.Pos()), m[1])
				}
			}
			return true
		})
	}
}
