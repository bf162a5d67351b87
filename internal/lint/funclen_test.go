package lint

import (
	"fmt"
	"go/ast"
	"slices"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function may be, counted from the line of
// its func keyword to its closing brace, both included (its doc comment
// not): about a screen, so a function can be read whole.
const maxFuncLines = 80

// longFuncs lists, as "file: func Name is N lines", every function or
// method of the non-test code under internal/ and cmd/ (third_party is
// other projects' code and not read) longer than maxFuncLines.
func longFuncs(files []file) []string {
	var out []string
	for _, f := range files {
		if !strings.HasPrefix(f.path, "internal/") && !strings.HasPrefix(f.path, "cmd/") {
			continue
		}
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n := f.fset.Position(fd.End()).Line - f.fset.Position(fd.Type.Pos()).Line + 1
			if n > maxFuncLines {
				out = append(out, fmt.Sprintf("%s: func %s is %d lines, over %d: split it by what its parts do", f.path, funcName(fd), n, maxFuncLines))
			}
		}
	}
	return out
}

// funcName is Name, or Type.Name for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok { // a generic type's method
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// TestFunctionLength: no function is longer than maxFuncLines.
func TestFunctionLength(t *testing.T) {
	for _, v := range longFuncs(sources(t)) {
		t.Error(v)
	}
}

// TestFunctionLengthCatchesOne: the rule fails on a function and a method
// one line too long, and not on one of exactly maxFuncLines, nor on a long
// function in a test file or in third_party.
func TestFunctionLengthCatchesOne(t *testing.T) {
	body := func(lines int) string { return strings.Repeat("\t_ = 0\n", lines-2) }
	root := t.TempDir()
	plantFile(t, root, "internal/x/long.go", "package x\n\nfunc Long() {\n"+body(maxFuncLines+1)+"}\n\n"+
		"type T struct{}\n\nfunc (*T) Method() {\n"+body(maxFuncLines+1)+"}\n\nfunc Fits() {\n"+body(maxFuncLines)+"}\n")
	plantFile(t, root, "internal/x/long_test.go", "package x\n\nfunc longTest() {\n"+body(2*maxFuncLines)+"}\n")
	plantFile(t, root, "third_party/y/long.go", "package y\n\nfunc Long() {\n"+body(2*maxFuncLines)+"}\n")
	files, err := sourcesIn(root)
	if err != nil {
		t.Fatal(err)
	}
	got := longFuncs(files)
	want := []string{
		fmt.Sprintf("internal/x/long.go: func Long is %d lines, over %d: split it by what its parts do", maxFuncLines+1, maxFuncLines),
		fmt.Sprintf("internal/x/long.go: func T.Method is %d lines, over %d: split it by what its parts do", maxFuncLines+1, maxFuncLines),
	}
	if !slices.Equal(got, want) {
		t.Errorf("longFuncs over the planted tree = %q, want %q", got, want)
	}
}
