package query

import (
	"testing"
	"time"
)

func TestInline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sql  string
		args []any
		want string
	}{
		{"SELECT count() FROM e WHERE dt = ? AND tag = ?", []any{"2024-01-02", "tag7"}, "SELECT count() FROM e WHERE dt = '2024-01-02' AND tag = 'tag7'"},
		{"SELECT ? , '?' , `a?` -- ?\n, ?", []any{int64(1), 2.5}, "SELECT 1 , '?' , `a?` -- ?\n, 2.5"},
		{"SELECT ?", []any{"it's \\ here"}, `SELECT 'it\'s \\ here'`},
		{"SELECT ? /* ? */", []any{time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, "SELECT '2024-01-02 03:04:05' /* ? */"},
		{"SELECT 1", nil, "SELECT 1"},
	}
	for _, tt := range tests {
		got, err := Inline(tt.sql, tt.args)
		if err != nil || got != tt.want {
			t.Errorf("Inline(%q, %v) = %q, %v, want %q", tt.sql, tt.args, got, err, tt.want)
		}
		if n := Placeholders(tt.sql); n != len(tt.args) {
			t.Errorf("Placeholders(%q) = %d, want %d", tt.sql, n, len(tt.args))
		}
	}
	if _, err := Inline("SELECT ?, ?", []any{1}); err == nil {
		t.Errorf("Inline with too few arguments succeeded")
	}
}

func TestParseArg(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want any
	}{{"42", int64(42)}, {"-1", int64(-1)}, {"2.5", 2.5}, {"2024-01-01", "2024-01-01"}, {"NaN", "NaN"}, {"abc", "abc"}}
	for _, tt := range tests {
		if got := ParseArg(tt.in); got != tt.want {
			t.Errorf("ParseArg(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func FuzzInline(f *testing.F) {
	f.Add("SELECT ? WHERE x = '?'", "v")
	f.Fuzz(func(t *testing.T, sql, arg string) {
		n := Placeholders(sql)
		args := make([]any, n)
		for i := range args {
			args[i] = arg
		}
		out, err := Inline(sql, args)
		if err != nil {
			t.Fatalf("Inline(%q) with %d args: %v", sql, n, err)
		}
		if n == 0 && out != sql {
			t.Fatalf("Inline(%q) without placeholders changed it to %q", sql, out)
		}
	})
}

// TestParameterize: each placeholder becomes a typed server-side parameter
// and its value travels quoted, escaped like a literal.
func TestParameterize(t *testing.T) {
	t.Parallel()
	got, params, err := Parameterize("SELECT count() FROM e WHERE dt = ? AND n >= ? AND s = ? AND '?' = x", []any{"2024-01-02", int64(7), "it's"})
	want := "SELECT count() FROM e WHERE dt = {p0:String} AND n >= {p1:Int64} AND s = {p2:String} AND '?' = x"
	wantParams := []Param{{"p0", "String", "'2024-01-02'"}, {"p1", "Int64", "'7'"}, {"p2", "String", `'it\'s'`}}
	if err != nil || got != want || len(params) != len(wantParams) {
		t.Fatalf("Parameterize = %q, %v, %v; want %q, %v", got, params, err, want, wantParams)
	}
	for i := range params {
		if params[i] != wantParams[i] {
			t.Errorf("param %d = %+v, want %+v", i, params[i], wantParams[i])
		}
	}
	if _, _, err := Parameterize("SELECT ?", nil); err == nil {
		t.Error("Parameterize with too few arguments succeeded")
	}
}
