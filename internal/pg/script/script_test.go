package script

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
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
		// pgbench finds :name by its colon even inside quotes (checked with
		// the binary: SELECT ':x' gives 5 in simple mode, a bind error in
		// extended), but quotes still hide semicolons.
		{"quotes hide semicolons, not variables", "SELECT ':x;', \"a;b\";", []string{`SELECT '$1;', "a;b"`}, [][]string{{`SELECT '`, `;', "a;b"`}}, [][]string{{"x"}}},
		{"dollar quotes", "SELECT $$a;:b$$, $t$x$t$;", []string{"SELECT $$a;$1$$, $t$x$t$"}, [][]string{{"SELECT $$a;", "$$, $t$x$t$"}}, [][]string{{"b"}}},
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
		{"SELECT 1;\n\\nosuch 10 ms\n", 2, `invalid command \nosuch`},
		{"\\setshell x", 1, `\setshell: missing argument`},
		{"\\shell", 1, `\shell: missing command`},
		{"\n\n\\set x random(1)", 3, "unexpected number of arguments (random)"},
		{"\\set x foo(1)", 1, "unexpected function name (foo)"},
		{"\\set x least()", 1, "at least one argument expected"},
		{"\\set x hash(1, 2, 3)", 1, "unexpected number of arguments (hash)"},
		{"\\set x permute(1)", 1, "unexpected number of arguments (permute)"},
		{"\\set x 1 +", 1, "syntax error"},
		{"\\set x (1", 1, "syntax error"},
		{"\\set x 1 < 2 < 3", 1, "syntax error"},
		{"\\set x 9223372036854775808", 1, "bigint constant overflow"},
		{"\\set x 99999999999999999999", 1, "bigint constant overflow"},
		{"\\set x 1 $ 2", 1, "unexpected character ($)"},
		{"\\set", 1, "missing argument"},
		{"\\set x", 1, "missing argument"},
		{"\\set 1x 1", 1, "invalid variable name"},
		{"SELECT 'open;", 1, "unterminated ' quote"},
		{"\\gset", 1, "\\gset must follow an SQL command"},
		{"\\set x 1\n\\gset", 2, "\\gset must follow an SQL command"},
		{"SELECT 1 \\gset a b", 1, "too many arguments"},
		{"-- only a comment\n", 2, "no commands"},
		{"\\set x 1 2", 1, "syntax error"},
		{"\\sleep", 1, "missing argument"},
		{"\\sleep 1 h", 1, "unrecognized time unit"},
		{"\\sleep 1.5 ms", 1, "invalid sleep time"},
		{"\\sleep 2msx", 1, "unrecognized time unit"},
		{"\\sleep 1.5", 1, "unrecognized time unit"}, // pgbench splits "1" from ".5"
		{"\\sleep ms", 1, "invalid sleep time"},
		{"\\sleep 2ms ms", 1, "invalid sleep time"}, // a unit against the number and one after it
		{"\\if 1\nSELECT 1;", 2, "\\if without matching \\endif"},
		{"SELECT 1;\n\\endif", 2, "\\endif without matching \\if"},
		{"\\else", 1, "\\else without matching \\if"},
		{"\\if 1\n\\else\n\\elif 2\n\\endif", 3, "\\elif after \\else"},
		{"\\if 1\n\\else\n\\else\n\\endif", 3, "\\else after \\else"},
		{"\\endpipeline", 1, "not in a pipeline"},
		{"\\startpipeline\n\\startpipeline", 2, "already in a pipeline"},
		{"\\startpipeline\nSELECT 1 \\gset\n\\endpipeline", 2, "not allowed in a pipeline"},
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

// eval parses "\set x EXPR" and evaluates it for a client with scale 10.
func eval(t *testing.T, expr string, rng *PRNG) (Value, error) {
	t.Helper()
	s, err := Parse("t", "\\set x "+expr, Predefined())
	if err != nil {
		return Value{}, err
	}
	vars := s.NewVars(map[string]Value{"scale": Int(10), "default_seed": Int(0), "t": Text("yes"), "n": Text("null"), "d": Text("2.5")})
	env := &Env{Vars: vars, Rand: rng}
	if err := s.Commands[0].Set(env); err != nil {
		return Value{}, err
	}
	return vars[s.Slot("x")], nil
}

func TestSetExpressions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr    string
		want    string // type and value as debug() prints them
		wantErr string
	}{
		{"1 + 2 * 3", "int 7", ""},
		{"(1 + 2) * 3", "int 9", ""},
		{"-7 / 2", "int -3", ""}, // C truncation
		{"-7 % 3", "int -1", ""},
		{"mod(-7, 3)", "int -1", ""},
		{"7 / 2.0", "double 3.5", ""},
		{"1 / 3.0", "double 0.333333333333333", ""},
		{"- -3", "int 3", ""},
		{"100000 * :scale", "int 1000000", ""},
		{"5 & 3 | 8 # 1", "int 8", ""},
		{"~0", "int -1", ""},
		{"~1 + 2", "int -4", ""}, // ~ binds looser than +
		{"1 << 62 >> 61", "int 2", ""},
		{"1 = 1 and 2 <> 3", "boolean true", ""},
		{"1 != 1 or not false", "boolean true", ""},
		{"3 > 2.5", "boolean true", ""},
		{"2 >= 3", "boolean false", ""},
		{"null is null", "boolean true", ""},
		{"1 isnull", "boolean false", ""},
		{"1 notnull", "boolean true", ""},
		{"true is not false", "boolean true", ""},
		{"1 + null", "null", ""},
		{"null and false", "null", ""},
		{"false and null", "boolean false", ""},
		{"case when 1 > 2 then 1 when 2 > 1 then 2 else 3 end", "int 2", ""},
		{"case when false then 1 end", "null", ""},
		{"abs(-4)", "int 4", ""},
		{"abs(-4.5)", "double 4.5", ""},
		{"greatest(1, 2.5, 2)", "double 2.5", ""},
		{"least(3, 1, 2)", "int 1", ""},
		{"int(2.5)", "int 2", ""}, // rint: half to even
		{"int(3.5)", "int 4", ""},
		{"double(3)", "double 3", ""},
		{"sqrt(16)", "double 4", ""},
		{"exp(0)", "double 1", ""},
		{"ln(1)", "double 0", ""},
		{"pi()", "double 3.14159265358979", ""},
		{"pow(2, 10)", "double 1024", ""},
		{"power(2, 0.5)", "double 1.4142135623731", ""},
		{"1e20", "double 1e+20", ""},
		{"1.", "double 1", ""},
		{".5", "double 0.5", ""},
		{"-9223372036854775808", "int -9223372036854775808", ""},
		{":t", "boolean true", ""},
		{":n", "null", ""},
		{":d * 2", "double 5", ""},
		{"permute(0, 1)", "int 0", ""},
		{"1 / 0", "", "division by zero"},
		{"1 % 0", "", "division by zero"},
		{"9223372036854775807 + 1", "", "bigint add out of range"},
		{"-9223372036854775807 - 2", "", "bigint sub out of range"},
		{"9223372036854775807 * 2", "", "bigint mul out of range"},
		{"-9223372036854775808 / -1", "", "bigint div out of range"},
		{"-9223372036854775808 % -1", "int 0", ""},
		{"int(1e30)", "", "double to int overflow"},
		{"not 1", "", "cannot coerce int to boolean"},
		{"true + 1", "", "cannot coerce boolean to int"},
		{"1.5 % 2", "int 0", ""}, // % coerces to int: rint(1.5) = 2
		{"random(5, 5)", "int 5", ""},
		{"random(2, 1)", "", "empty range given to random"},
		{"random(-9223372036854775808, 9223372036854775807)", "", "random range is too large"},
		{"random(0, 9223372036854775807)", "", "random range is too large"},
		{"random_zipfian(1, 1, 1.5)", "int 1", ""},
		{"random_zipfian(1, 10, 0.5)", "", "zipfian parameter must be in range [1.001, 1000]"},
		{"random_gaussian(1, 10, 1.5)", "", "gaussian parameter must be at least 2.000000"},
		{"random_exponential(1, 10, 0)", "", "exponential parameter must be greater than zero"},
		{"permute(1, 0)", "", "permute size parameter must be greater than zero"},
		{"random_gaussian(1, 10, 0.0 / 0)", "", "gaussian parameter must be at least"},
		{"random_zipfian(1, 10, 0.0 / 0)", "", "zipfian parameter must be in range"},
		{":nope", "", `undefined variable "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			t.Parallel()
			r := NewPRNG(1)
			v, err := eval(t, tt.expr, &r)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("\\set x %s: got %v, %v; want error containing %q", tt.expr, v, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("\\set x %s: %v", tt.expr, err)
			}
			if got := debugText(v); got != tt.want {
				t.Errorf("\\set x %s: got %s, want %s", tt.expr, got, tt.want)
			}
		})
	}
}

func debugText(v Value) string {
	var b strings.Builder
	debugLine(&Env{Debug: &b}, v)
	_, s, _ := strings.Cut(strings.TrimSpace(b.String()), ": ")
	return s
}

// TestPgbenchKnownValues pins draws the real pgbench 15 made: client 0 of
// "pgbench -c 1 --random-seed=5432" running testdata/rand.sql printed these
// with debug(). The conformance suite in internal/pg checks the same
// against the binary itself whenever a server is available.
func TestPgbenchKnownValues(t *testing.T) {
	t.Parallel()
	seeds := NewSeeds(5432, 1, 1)
	r := seeds.Clients[0]
	got := []int64{
		uniform(&r, 1, 100000),
		exponential(&r, 1, 1000, 2.5),
		gaussian(&r, 1, 1000, 4.0),
		zipfian(&r, 1, 1000, 1.5),
	}
	got = append(got, permute(got[0], 100000, seeds.DefaultSeed), permute(7, 1000, 5432),
		hashMurmur2(got[0], uint64(seeds.DefaultSeed)), hashFNV1a(got[0], 5), seeds.DefaultSeed)
	want := []int64{58915, 150, 497, 2, 4155, 770, 5338566391762926251, -3200784708075924955, 7590783070443337668}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pgbench draws for seed 5432: got %v, want %v", got, want)
	}
}

func TestPermuteIsAPermutation(t *testing.T) {
	t.Parallel()
	for _, size := range []int64{1, 2, 3, 10, 97, 1024} {
		seen := map[int64]bool{}
		for v := range size {
			p := permute(v, size, 42)
			if p < 0 || p >= size || seen[p] {
				t.Fatalf("permute(%d, %d) = %d: out of range or repeated", v, size, p)
			}
			seen[p] = true
		}
	}
}

func TestRandomStaysInRange(t *testing.T) {
	t.Parallel()
	r := NewPRNG(3)
	for _, tc := range []struct {
		expr   string
		lo, hi int64
	}{
		{"random(-5, 5)", -5, 5},
		{"random_zipfian(10, 20, 1.2)", 10, 20},
		{"random_exponential(10, 20, 3)", 10, 20},
		{"random_gaussian(10, 20, 2.5)", 10, 20},
		{"random(1, 100000 * :scale)", 1, 1000000},
	} {
		seen := map[int64]bool{}
		for range 2000 {
			v, err := eval(t, tc.expr, &r)
			if err != nil {
				t.Fatal(err)
			}
			if v.i < tc.lo || v.i > tc.hi {
				t.Fatalf("%s gave %d, outside [%d, %d]", tc.expr, v.i, tc.lo, tc.hi)
			}
			seen[v.i] = true
		}
		if len(seen) < 5 {
			t.Errorf("%s gave only %d distinct values in 2000 draws", tc.expr, len(seen))
		}
	}
}

func TestZipfianSkew(t *testing.T) {
	t.Parallel()
	r := NewPRNG(5)
	ones := 0
	const n = 10000
	for range n {
		if zipfian(&r, 1, 1000, 2) == 1 {
			ones++
		}
	}
	// With s=2 over 1..1000, P(1) = 1/H(1000,2) ≈ 0.608.
	if p := float64(ones) / n; p < 0.58 || p > 0.64 {
		t.Errorf("P(1) = %.3f, want about 0.608", p)
	}
}

func FuzzParse(f *testing.F) {
	for _, b := range builtins() {
		f.Add(b.src)
	}
	f.Add("\\set x random_zipfian(1, :scale * 10, 1.07)\nSELECT :x::int, '$$' -- c\n;")
	f.Add("\\set a (1 + -2) * 3 / 4 % 5 \\\n + 1\nSELECT $t$ :a $t$ /* x */;")
	f.Add("\\if :a > 1 and not :b is null\n\\set c case when ~:a << 2 >= 3 then hash(:a) else permute(:a, 10) end\n\\elif true\nSELECT 1 \\; SELECT 2 \\gset p_\n\\else\n\\sleep :c ms\n\\endif")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("fuzz", src, Predefined())
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.Line < 1 {
				t.Fatalf("Parse error %v is not a *script.Error with a line", err)
			}
			return
		}
		vars := s.NewVars(map[string]Value{"scale": Int(1), "client_id": Int(0), "random_seed": Int(1), "default_seed": Int(3)})
		r := NewPRNG(1)
		env := &Env{Vars: vars, Rand: &r}
		for _, c := range s.Commands {
			if c.SQL == nil {
				if c.expr != nil {
					_, _ = c.expr.eval(env) // errors are fine; panics are not
				}
				continue
			}
			if len(c.SQL.Parts) != len(c.SQL.Params)+1 {
				t.Fatalf("%d parts for %d params", len(c.SQL.Parts), len(c.SQL.Params))
			}
			_, _ = c.SQL.Args(nil, vars)
		}
	})
}

// TestSleepTime: \sleep's number and unit, as pgbench 15 reads them: a
// unit may be written against the number, and the number is atoi's.
func TestSleepTime(t *testing.T) {
	tests := []struct {
		src  string
		want time.Duration
	}{
		{"\\sleep 3", 3 * time.Second},
		{"\\sleep 2 ms", 2 * time.Millisecond},
		{"\\sleep 2ms", 2 * time.Millisecond},
		{"\\sleep 250US", 250 * time.Microsecond},
		{"\\sleep +1s", time.Second},
		{"\\sleep -", 0},
	}
	for _, tt := range tests {
		s, err := Parse("f.sql", tt.src, Predefined())
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		got, err := s.Commands[0].Sleep(s.NewVars(nil))
		if err != nil || got != tt.want {
			t.Errorf("%s sleeps %v, %v; want %v", tt.src, got, err, tt.want)
		}
	}
}
