package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// The no-package-level-mutable-state rule. A package-level var is allowed
// when it is one of these, and nothing in its package writes it:
//
//   - _ (a compile-time assertion: var _ Store = (*pebbleStore)(nil));
//   - a sentinel error: named Err… or err…, made by errors.New or
//     fmt.Errorf, or another package's Err… (registry.ErrUnknown);
//   - a value whose methods never change it, made by one of
//     immutableMakers (regexp.MustCompile, template.Must, …);
//   - a table or constant Go cannot declare const: a literal, a composite
//     literal (slices, maps, arrays and structs of plain data), a constant
//     expression, another package's value or a function (an alias);
//   - the contents of a file (//go:embed);
//   - with no initializer, a nil func, slice or map (a build's stub: the
//     rocksdb knobs without -tags rocksdb).
//
// Written means, in any function of the package (locals of the same name
// aside): assigned (=, op=, ++, --), an element or field of it assigned,
// its address taken, or passed as the slice or map a builtin or sort and
// slices function changes (delete, clear, append, copy, sort.*,
// slices.Sort…). A method with a pointer receiver called on a table is
// not seen: no type that has one (a mutex, an atomic, a cache) is a
// literal here. stateExempt lists the few others, each with its reason.
var immutableMakers = []string{"regexp.MustCompile", "template.Must", "strings.NewReplacer", "prometheus.NewDesc", "time.Date"}

// stateExempt are package vars the rule allows by name, with why.
var stateExempt = map[string]string{
	"internal/metrics.Buckets":       "the histogram's bucket bounds, computed once from constants by bucketBounds; nothing writes them",
	"internal/kv/engine.openRocksDB": "nil without -tags rocksdb (norocksdb.go), a func of rocksdb.go with it: a build's stub of a named func type",
}

// mutators are the functions that change the slice or map given first.
var mutators = []string{"delete", "clear", "append", "copy", "sort.Sort", "sort.Stable", "sort.Slice", "sort.SliceStable",
	"sort.Strings", "sort.Ints", "sort.Float64s", "slices.Sort", "slices.SortFunc", "slices.SortStableFunc", "slices.Reverse"}

// stateViolations lists, as "file:line: var name …", every package-level
// var of the non-test code that the rule does not allow.
func stateViolations(files []file) []string {
	vars := map[string]map[string]string{} // package → var name → where
	var out []string
	for _, f := range files {
		for _, d := range f.ast.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if id.Name == "_" {
						continue
					}
					where := fmt.Sprintf("%s:%d", f.path, f.fset.Position(id.Pos()).Line)
					if vars[f.pkg] == nil {
						vars[f.pkg] = map[string]string{}
					}
					vars[f.pkg][id.Name] = where
					if _, ok := stateExempt[f.pkg+"."+id.Name]; ok {
						continue
					}
					if why := notImmutable(gd, vs, i, id.Name); why != "" {
						out = append(out, fmt.Sprintf("%s: var %s %s", where, id.Name, why))
					}
				}
			}
		}
	}
	for _, f := range files {
		for _, w := range writes(f, vars[f.pkg]) {
			out = append(out, fmt.Sprintf("%s: var %s (%s) is written: package-level state", w.at, w.name, vars[f.pkg][w.name]))
		}
	}
	return out
}

// notImmutable says why the i-th var of vs is not of a kind the rule
// allows; "" when it is.
func notImmutable(gd *ast.GenDecl, vs *ast.ValueSpec, i int, name string) string {
	if len(vs.Values) == 0 {
		if embedded(gd, vs) {
			return ""
		}
		switch vs.Type.(type) {
		case *ast.FuncType, *ast.ArrayType, *ast.MapType:
			return ""
		}
		return "has no initializer and is not a nil func, slice or map: a variable to be set later"
	}
	if len(vs.Values) != len(vs.Names) {
		return "is one of several results of a call: state computed at start-up"
	}
	if plain(vs.Values[i]) {
		return ""
	}
	call, ok := vs.Values[i].(*ast.CallExpr)
	if !ok {
		return "is not a literal, a table or an alias"
	}
	fn := callee(call)
	if fn == "errors.New" || fn == "fmt.Errorf" {
		if strings.HasPrefix(name, "Err") || strings.HasPrefix(name, "err") {
			return ""
		}
		return "is an error not named Err…: name a sentinel error so"
	}
	if slices.Contains(immutableMakers, fn) {
		return ""
	}
	return fmt.Sprintf("is made by %s at start-up: not a kind the rule knows immutable (a literal, sentinel error, %s)", fn, strings.Join(immutableMakers, ", "))
}

// plain says whether e is a literal, a composite literal, a constant
// expression, another value or function named, or a function literal.
func plain(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit, *ast.CompositeLit, *ast.Ident, *ast.SelectorExpr, *ast.FuncLit:
		return true
	case *ast.BinaryExpr:
		return plain(e.X) && plain(e.Y)
	case *ast.UnaryExpr:
		return e.Op != token.AND && plain(e.X)
	case *ast.ParenExpr:
		return plain(e.X)
	case *ast.CallExpr: // a conversion of a plain value: []byte("x")
		if _, ok := e.Fun.(*ast.ArrayType); ok && len(e.Args) == 1 {
			return plain(e.Args[0])
		}
	}
	return false
}

// embedded says whether vs holds a file's contents (a //go:embed line,
// which CommentGroup.Text leaves out as a directive).
func embedded(gd *ast.GenDecl, vs *ast.ValueSpec) bool {
	for _, doc := range []*ast.CommentGroup{gd.Doc, vs.Doc} {
		if doc == nil {
			continue
		}
		for _, c := range doc.List {
			if strings.HasPrefix(c.Text, "//go:embed ") {
				return true
			}
		}
	}
	return false
}

// callee names a call's function: "errors.New", "append".
func callee(call *ast.CallExpr) string {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name
	case *ast.SelectorExpr:
		if id, ok := fn.X.(*ast.Ident); ok {
			return id.Name + "." + fn.Sel.Name
		}
		if inner, ok := fn.X.(*ast.CallExpr); ok { // template.Must(…).Lookup(…): a method of what the inner call made
			return callee(inner)
		}
	case *ast.IndexExpr: // template.Must[T]-like generic calls
		return callee(&ast.CallExpr{Fun: fn.X})
	}
	return ""
}

type write struct{ at, name string }

// writes lists the writes of f's functions to the package vars named in
// vars, a function's own variables of the same name aside.
func writes(f file, vars map[string]string) []write {
	var out []write
	for _, d := range f.ast.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		local := locals(fd)
		hit := func(e ast.Expr) {
			if id := root(e); id != nil && vars[id.Name] != "" && !local[id.Name] {
				out = append(out, write{fmt.Sprintf("%s:%d", f.path, f.fset.Position(id.Pos()).Line), id.Name})
			}
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE {
					for _, l := range n.Lhs {
						hit(l)
					}
				}
			case *ast.IncDecStmt:
				hit(n.X)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					hit(n.X)
				}
			case *ast.CallExpr:
				if slices.Contains(mutators, callee(n)) && len(n.Args) > 0 {
					if s, ok := n.Args[0].(*ast.SliceExpr); !ok || !s.Slice3 { // x[:n:n] copies on append
						hit(n.Args[0])
					}
				}
			}
			return true
		})
	}
	return out
}

// root is the variable an expression writes through: x of x, x[i], x.f,
// *x, (x); nil for anything else.
func root(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// locals are the names a function declares: receiver, parameters,
// results, and every variable or function literal's parameter inside.
func locals(fd *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, fld := range fl.List {
			for _, n := range fld.Names {
				out[n.Name] = true
			}
		}
	}
	fields(fd.Recv)
	fields(fd.Type.Params)
	fields(fd.Type.Results)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						out[id.Name] = true
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						out[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				out[id.Name] = true
			}
		case *ast.FuncLit:
			fields(n.Type.Params)
			fields(n.Type.Results)
		}
		return true
	})
	return out
}

// TestNoPackageState: package-level vars are constants in all but name
// (the kinds above), and nothing writes them: a command keeps no state
// from one run to the next, and tests may run in parallel.
func TestNoPackageState(t *testing.T) {
	for _, v := range stateViolations(sources(t)) {
		t.Error(v)
	}
}

// TestNoPackageStateCatchesOne: the rule fails on a counter, a cache
// filled later, a table sorted in place, a var set at start-up and an
// error not named as a sentinel, and not on a sentinel error, a compiled
// regexp, a table only read, a build stub or a local of a var's name.
func TestNoPackageStateCatchesOne(t *testing.T) {
	root := t.TempDir()
	plantFile(t, root, "internal/x/x.go", `package x

import (
	"errors"
	"os"
	"regexp"
	"sort"
)

var ErrGone = errors.New("gone")
var wordRe = regexp.MustCompile("[a-z]+")
var names = []string{"b", "a"}
var stub func() error

var count int
var cache = map[string]int{}
var order = []string{"b", "a"}
var home = os.Getenv("HOME")
var gone = errors.New("gone")

func Next() int { count++; return count }

func Remember(k string) { cache[k] = len(names) }

func Sorted() []string { sort.Strings(order); return order }

func Shadow() int { names := []string{"c"}; names[0] = "d"; return len(names) + len(wordRe.String()) }
`)
	files, err := sourcesIn(root)
	if err != nil {
		t.Fatal(err)
	}
	got := stateViolations(files)
	slices.Sort(got)
	want := []string{
		"internal/x/x.go:15: var count has no initializer and is not a nil func, slice or map: a variable to be set later",
		"internal/x/x.go:18: var home is made by os.Getenv at start-up: not a kind the rule knows immutable (a literal, sentinel error, " + strings.Join(immutableMakers, ", ") + ")",
		"internal/x/x.go:19: var gone is an error not named Err…: name a sentinel error so",
		"internal/x/x.go:21: var count (internal/x/x.go:15) is written: package-level state",
		"internal/x/x.go:23: var cache (internal/x/x.go:16) is written: package-level state",
		"internal/x/x.go:25: var order (internal/x/x.go:17) is written: package-level state",
	}
	if !slices.Equal(got, want) {
		t.Errorf("stateViolations over the planted tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
