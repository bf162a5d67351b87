// Package lint holds the project's own rules, run as a test so that CI
// enforces them: the architecture in the folder layout stays true.
package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/dbmeter/dbmeter/"

type file struct {
	path string // relative to the repository root
	pkg  string // directory, e.g. internal/kv
	ast  *ast.File
	fset *token.FileSet
}

func sources(t *testing.T) []file {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := sourcesIn(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no Go files found")
	}
	return files
}

// sourcesIn parses the non-test Go files below root; a rule's own test
// runs it over a tree it plants the offence in.
func sourcesIn(root string) ([]file, error) {
	var files []file
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// third_party holds other projects' code, kept as they wrote it.
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "third_party") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		files = append(files, file{path: rel, pkg: filepath.Dir(rel), ast: f, fset: fset})
		return nil
	})
	return files, err
}

func imports(f file) []string {
	var out []string
	for _, imp := range f.ast.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		out = append(out, p)
	}
	return out
}

// family returns the family a package belongs to, or "".
func family(pkg string) string {
	for _, fam := range []string{"internal/kv", "internal/pg", "internal/ch"} {
		if pkg == fam || strings.HasPrefix(pkg, fam+"/") {
			return fam
		}
	}
	return ""
}

// Families are plug-ins around the core: none imports another, and the core
// (load, hist, result) imports none of them.
func TestImportsFlowOneWay(t *testing.T) {
	core := map[string]bool{"internal/load": true, "internal/hist": true, "internal/result": true}
	for _, f := range sources(t) {
		for _, imp := range imports(f) {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			if fam := family(dep); fam != "" {
				if own := family(f.pkg); own != "" && own != fam {
					t.Errorf("%s imports %s: families must not import one another", f.path, dep)
				}
				if core[f.pkg] {
					t.Errorf("%s imports %s: the core must not know the families", f.path, dep)
				}
			}
			if f.pkg == "internal/report" && dep != "internal/result" && !strings.HasPrefix(dep, "internal/report") && dep != "internal/hist" {
				t.Errorf("%s imports %s: reporters read only the result document", f.path, dep)
			}
		}
	}
}

// Only main decides the exit code; a library that exits loses results.
func TestNoExitOutsideMain(t *testing.T) {
	for _, f := range sources(t) {
		// A test-support package (kvtest) may exit the child process it
		// re-executes itself as; a second signal's exit (package interrupt) is the one
		// deliberate exit outside main.
		if strings.HasPrefix(f.pkg, "cmd/") || strings.HasSuffix(f.pkg, "test") || f.path == "internal/interrupt/interrupt.go" {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					switch id.Name + "." + sel.Sel.Name {
					case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf":
						t.Errorf("%s: %s.%s outside cmd/", f.fset.Position(sel.Pos()), id.Name, sel.Sel.Name)
					}
				}
			}
			return true
		})
	}
}

// Raw sync/atomic functions on plain integers are easy to misuse (a plain
// read elsewhere races); typed atomics make the guarded value visible.
func TestTypedAtomics(t *testing.T) {
	for _, f := range sources(t) {
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "atomic" {
					name := sel.Sel.Name
					for _, p := range []string{"Add", "Load", "Store", "Swap", "CompareAndSwap"} {
						if strings.HasPrefix(name, p) && name != p {
							t.Errorf("%s: atomic.%s: use a typed atomic (atomic.Int64, …)", f.fset.Position(sel.Pos()), name)
						}
					}
				}
			}
			return true
		})
	}
}

// Printing to the terminal is the CLI's and the reporters' job; a library
// that prints cannot be used quietly or tested.
func TestNoPrintingInLibraries(t *testing.T) {
	allowed := func(pkg string) bool {
		return strings.HasPrefix(pkg, "cmd/") || pkg == "internal/cli" || strings.HasPrefix(pkg, "internal/report")
	}
	for _, f := range sources(t) {
		if allowed(f.pkg) {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					switch id.Name + "." + sel.Sel.Name {
					case "fmt.Print", "fmt.Printf", "fmt.Println", "log.Print", "log.Printf", "log.Println":
						t.Errorf("%s: %s.%s in a library package", f.fset.Position(call.Pos()), id.Name, sel.Sel.Name)
					}
				}
			}
			if id, ok := call.Fun.(*ast.Ident); ok && (id.Name == "println" || id.Name == "print") {
				t.Errorf("%s: builtin %s in a library package", f.fset.Position(call.Pos()), id.Name)
			}
			return true
		})
	}
}

// TestExtraFiguresAreDeclared: a family writes an extra figure only through
// result.Declarations.Set (or Run.SetExtra), which records how shards
// merge it, so merge never guesses a rule from a name. Only result, which
// implements those, merge, which builds merged runs, and report, which
// folds repetitions into the runs it renders and never writes, write Extra
// themselves.
func TestExtraFiguresAreDeclared(t *testing.T) {
	for _, f := range sources(t) {
		if f.pkg == "internal/result" || f.pkg == "internal/merge" || f.pkg == "internal/report" {
			continue
		}
		isExtra := func(e ast.Expr) bool {
			if ix, ok := e.(*ast.IndexExpr); ok {
				e = ix.X
			}
			sel, ok := e.(*ast.SelectorExpr)
			return ok && sel.Sel.Name == "Extra"
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if isExtra(lhs) {
						t.Errorf("%s: writes a run's Extra directly; declare the figure and use result.Declarations.Set", f.fset.Position(lhs.Pos()))
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == "Extra" {
					t.Errorf("%s: sets a run's Extra in a literal; declare the figure and use result.Declarations.Set", f.fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
}
