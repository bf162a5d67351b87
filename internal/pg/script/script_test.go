package script

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestParseSQL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		src    string
		text   []string // SQL texts in order
		parts  [][]string
		params [][]string
	}{
		{"one statement", "SELECT 1;", []string{"SELECT 1"}, [][]string{{"SELECT 1"}}, [][]string{nil}},
		{"no final semicolon", "SELECT 1", []string{"SELECT 1"}, [][]string{{"SELECT 1"}}, [][]string{nil}},
		{"variable", "\\set x 1\nSELECT :x;", []string{"SELECT $1"}, [][]string{{"SELECT ", ""}}, [][]string{{"x"}}},
		{"one parameter per reference", "\\set a 1\nUPDATE t SET v = v + :a WHERE k = :a;",
			[]string{"UPDATE t SET v = v + $1 WHERE k = $2"}, [][]string{{"UPDATE t SET v = v + ", " WHERE k = ", ""}}, [][]string{{"a", "a"}}},
		{"cast is not a variable", "SELECT 1::int;", []string{"SELECT 1::int"}, [][]string{{"SELECT 1::int"}}, [][]string{nil}},
		{"quotes hide variables and semicolons", "SELECT ':x;', \"a;b\";", []string{`SELECT ':x;', "a;b"`}, [][]string{{`SELECT ':x;', "a;b"`}}, [][]string{nil}},
		{"dollar quotes", "SELECT $$a;:b$$, $t$x$t$;", []string{"SELECT $$a;:b$$, $t$x$t$"}, [][]string{{"SELECT $$a;:b$$, $t$x$t$"}}, [][]string{nil}},
		{"comments dropped", "-- hello\nSELECT 1 -- tail; not the end\n;", []string{"SELECT 1"}, [][]string{{"SELECT 1"}}, [][]string{nil}},
		{"multi-line command", "BEGIN;\nSELECT\n  1;\nEND;", []string{"BEGIN", "SELECT\n  1", "END"}, [][]string{{"BEGIN"}, {"SELECT\n  1"}, {"END"}}, [][]string{nil, nil, nil}},
		{"predefined scale", "SELECT :scale;", []string{"SELECT $1"}, [][]string{{"SELECT ", ""}}, [][]string{{"scale"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := Parse("t.sql", tt.src, Predefined())
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.src, err)
			}
			var text []string
			var parts, params [][]string
			for _, c := range s.Commands {
				if c.SQL != nil {
					text = append(text, c.SQL.Text)
					parts = append(parts, c.SQL.Parts)
					params = append(params, c.SQL.Params)
				}
			}
			if !reflect.DeepEqual(tt.text, text) {
				t.Errorf("Parse(%q) texts: got %q, want %q", tt.src, text, tt.text)
			}
			if !reflect.DeepEqual(tt.parts, parts) {
				t.Errorf("Parse(%q) parts: got %q, want %q", tt.src, parts, tt.parts)
			}
			if !reflect.DeepEqual(tt.params, params) {
				t.Errorf("Parse(%q) params: got %q, want %q", tt.src, params, tt.params)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		line int
		want string
	}{
		{"SELECT 1;\n\\sleep 10 ms\n", 2, `\sleep is not supported`},
		{"\\setshell x echo 1", 1, `\setshell is not supported`},
		{"\n\n\\set x random(1)", 3, "random takes 2 arguments"},
		{"\\set x exp(1)", 1, "function exp is not supported"},
		{"\\set x 1 +", 1, "ends too early"},
		{"\\set x (1", 1, "missing ')'"},
		{"\\set", 1, "needs a variable name"},
		{"\\set x", 1, "needs an expression"},
		{"SELECT 1;\nSELECT :nope;", 2, `variable "nope" is never set`},
		{"SELECT 'open;", 1, "unterminated ' quote"},
		{"SELECT 1 \\gset", 1, "meta-command must start its own line"},
		{"-- only a comment\n", 2, "no commands"},
		{"\\set x 1 2", 1, "unexpected"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("f.sql", tt.src, Predefined())
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) = %v, want a *script.Error", tt.src, err)
			}
			if se.Line != tt.line || !strings.Contains(se.Msg, tt.want) {
				t.Errorf("Parse(%q) = line %d %q, want line %d containing %q", tt.src, se.Line, se.Msg, tt.line, tt.want)
			}
		})
	}
}

func TestSetExpressions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr    string
		want    string
		wantErr string
	}{
		{"1 + 2 * 3", "7", ""},
		{"(1 + 2) * 3", "9", ""},
		{"-7 / 2", "-3", ""}, // C truncation
		{"-7 % 3", "-1", ""},
		{"7 / 2.0", "3.5", ""},
		{"--3", "3", ""},
		{"100000 * :scale", "1000000", ""},
		{":scale * :scale - 1", "99", ""},
		{"1 / 0", "", "division by zero"},
		{"1.5 % 2", "", "integer operands"},
		{"9223372036854775807 + 1", "", "out of range"},
		{"random(5, 5)", "5", ""},
		{"random(2, 1)", "", "empty range"},
		{"random_zipfian(1, 1, 1.5)", "1", ""},
		{"random_zipfian(1, 10, 0.5)", "", "zipfian parameter"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			t.Parallel()
			s, err := Parse("t", "\\set x "+tt.expr+"\nSELECT :x;", Predefined())
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.expr, err)
			}
			vars := s.NewVars(map[string]Value{"scale": Int(10)})
			err = s.Commands[0].Set(vars, rand.New(rand.NewPCG(1, 2)))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("\\set x %s: got %v, want error containing %q", tt.expr, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("\\set x %s: %v", tt.expr, err)
			}
			args, err := s.Commands[1].SQL.Args(nil, vars)
			if err != nil {
				t.Fatal(err)
			}
			if got := Text(strings.TrimSpace(strings.Trim(strings.TrimSpace(fmtArg(args[0])), "\""))).String(); got != tt.want {
				t.Errorf("\\set x %s: got %s, want %s", tt.expr, got, tt.want)
			}
		})
	}
}

func fmtArg(a any) string {
	switch a := a.(type) {
	case int64:
		return Int(a).String()
	case float64:
		return Double(a).String()
	}
	return a.(string)
}

func TestRandomStaysInRange(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, src := range []string{"random(-5, 5)", "random_zipfian(10, 20, 1.2)", "random(1, 100000 * :scale)"} {
		s, err := Parse("t", "\\set x "+src, Predefined())
		if err != nil {
			t.Fatal(err)
		}
		vars := s.NewVars(map[string]Value{"scale": Int(1)})
		lo, hi := map[string][2]int64{"random(-5, 5)": {-5, 5}, "random_zipfian(10, 20, 1.2)": {10, 20}, "random(1, 100000 * :scale)": {1, 100000}}[src][0], map[string][2]int64{"random(-5, 5)": {-5, 5}, "random_zipfian(10, 20, 1.2)": {10, 20}, "random(1, 100000 * :scale)": {1, 100000}}[src][1]
		seen := map[int64]bool{}
		for range 2000 {
			if err := s.Commands[0].Set(vars, rng); err != nil {
				t.Fatal(err)
			}
			v := vars[s.Commands[0].slot]
			if v.i < lo || v.i > hi {
				t.Fatalf("%s gave %d, outside [%d, %d]", src, v.i, lo, hi)
			}
			seen[v.i] = true
		}
		if len(seen) < 5 {
			t.Errorf("%s gave only %d distinct values in 2000 draws", src, len(seen))
		}
	}
}

func TestZipfianSkew(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	ones := 0
	const n = 10000
	for range n {
		if zipfian(rng, 1000, 2) == 1 {
			ones++
		}
	}
	// With s=2 over 1..1000, P(1) = 1/H(1000,2) ≈ 0.608.
	if ones < n*55/100 || ones > n*66/100 {
		t.Errorf("zipfian(1000, 2) drew 1 in %d of %d, want about 60.8%%", ones, n)
	}
}

func TestBuiltins(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"tpcb-like", "simple-update", "select-only", "select", "tpcb"} {
		full, s, err := Builtin(name, nil)
		if err != nil || s == nil || !strings.HasPrefix(full, name) {
			t.Errorf("Builtin(%q) = %q, %v", name, full, err)
		}
	}
	for _, name := range []string{"nope", "s", ""} {
		if _, _, err := Builtin(name, nil); err == nil {
			t.Errorf("Builtin(%q) succeeded, want an error", name)
		}
	}
	_, s, _ := Builtin("tpcb-like", nil)
	var kinds []string
	for _, c := range s.Commands {
		if c.SQL != nil {
			kinds = append(kinds, c.SQL.Keyword)
		}
	}
	want := []string{"begin", "update", "select", "update", "update", "insert", "end"}
	if !reflect.DeepEqual(want, kinds) {
		t.Errorf("tpcb-like statements: got %q, want %q", kinds, want)
	}
}

func FuzzParse(f *testing.F) {
	for _, b := range builtins() {
		f.Add(b.src)
	}
	f.Add("\\set x random_zipfian(1, :scale * 10, 1.07)\nSELECT :x::int, '$$' -- c\n;")
	f.Add("\\set a (1 + -2) * 3 / 4 % 5 \\\n + 1\nSELECT $t$ :a $t$ /* x */;")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("fuzz", src, Predefined())
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.Line < 1 {
				t.Fatalf("Parse error %v is not a *script.Error with a line", err)
			}
			return
		}
		vars := s.NewVars(map[string]Value{"scale": Int(1), "client_id": Int(0), "random_seed": Int(1)})
		rng := rand.New(rand.NewPCG(1, 1))
		for _, c := range s.Commands {
			if c.SQL == nil {
				_ = c.Set(vars, rng) // errors are fine; panics are not
				continue
			}
			if len(c.SQL.Parts) != len(c.SQL.Params)+1 {
				t.Fatalf("%d parts for %d params", len(c.SQL.Parts), len(c.SQL.Params))
			}
			_, _ = c.SQL.Args(nil, vars)
		}
	})
}
