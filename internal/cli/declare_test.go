package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/calibrate"
	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/ch/nullserver"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/flagval"
	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/kv/kvycsb"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/null"
	"github.com/dbmeter/dbmeter/internal/pg"
	"github.com/dbmeter/dbmeter/internal/sink"
	"github.com/dbmeter/dbmeter/internal/ycsb"
)

// declaredConfigs are the types whose fields each command's flags may
// declare: the family's config and the load settings it takes, and the
// outputs' (sink.Options) where the command writes a result, and the
// capacity search's (capacity.Options) where it searches.
func declaredConfigs() map[string][]any {
	return map[string][]any{
		"dbmeter kv":             {kv.Command{}, kv.MatrixOptions{}, kv.Matrix{}, workload.Spec{}, kvycsb.Spec{}, ycsb.Record{}, load.Config{}, load.Options{}, sink.Options{}},
		"dbmeter pg":             {pg.Command{}, load.Config{}, capacity.Options{}, sink.Options{}},
		"dbmeter ch":             {ch.Reach{}},
		"dbmeter ch insert":      {insert.Command{}, insert.Config{}, load.Config{}, load.Options{}, sink.Options{}},
		"dbmeter ch query":       {query.Command{}, query.Config{}, query.Worker{}, query.Dataset{}, load.Config{}, load.Options{}, capacity.Options{}, sink.Options{}},
		"dbmeter null":           {null.Config{}, load.Config{}, load.Options{}, capacity.Options{}, sink.Options{}},
		"dbmeter ch null-server": {nullserver.Options{}},
		"dbmeter calibrate":      {calibrate.Limits{}, sink.Options{}},
		"dbmeter merge":          {sink.Options{}},
	}
}

// undeclared lists, as "--flag declares Field, ...", every field a flag
// of fs declares that none of types has.
func undeclared(fs *pflag.FlagSet, types []any) []string {
	var out []string
	fs.VisitAll(func(f *pflag.Flag) {
		for _, field := range f.Annotations[fieldsKey] {
			if !hasField(types, field) {
				out = append(out, fmt.Sprintf("--%s declares %s, which none of %s has", f.Name, field, typeNames(types)))
			}
		}
	})
	return out
}

func typeNames(types []any) string {
	names := make([]string, len(types))
	for i, v := range types {
		names[i] = fmt.Sprintf("%T", v)
	}
	return "[" + strings.Join(names, " ") + "]"
}

// TestDeclaredFieldsExist: every field a flag declares is a field of its
// command's config, so that the field the family names and asks about is
// the one the flag sets; a command whose flags declare fields and that
// declaredConfigs does not list fails, its fields matched against nothing.
func TestDeclaredFieldsExist(t *testing.T) {
	t.Parallel()
	configs := declaredConfigs()
	var visit func(cmd *cobra.Command)
	visit = func(cmd *cobra.Command) {
		for _, bad := range undeclared(cmd.LocalFlags(), configs[cmd.CommandPath()]) {
			t.Errorf("%s: %s", cmd.CommandPath(), bad)
		}
		for _, sub := range cmd.Commands() {
			visit(sub)
		}
	}
	visit(newRoot(Env{}))
}

// TestDeclaredFieldsCatchDrift: the drift a hand-kept map had, a flag
// declared for {IdleTime} while the config's field is IdleTimeout, is
// caught and named; the flags declared right are not.
func TestDeclaredFieldsCatchDrift(t *testing.T) {
	t.Parallel()
	var c query.Config
	fs := pflag.NewFlagSet("query", pflag.ContinueOnError)
	declare(fs,
		opt{"IdleTime", "pool-idle-timeout", "", &c.IdleTimeout, "close connections idle this long"},
		opt{"MaxIdle", "pool-max-idle", "", &c.MaxIdle, "most idle connections kept"})
	got := undeclared(fs, []any{query.Config{}})
	if len(got) != 1 || !strings.HasPrefix(got[0], "--pool-idle-timeout declares IdleTime,") {
		t.Errorf("undeclared = %q; want one entry, --pool-idle-timeout declares IdleTime", got)
	}
	if f := fieldFlags(fs); f["MaxIdle"] != "pool-max-idle" || f["IdleTime"] != "pool-idle-timeout" {
		t.Errorf("fieldFlags = %v; want each declared field mapped to its flag", f)
	}
}

// TestDeclareBindsDefaults: a declared flag's default is the value its
// field held when it was bound, for every kind of field declare takes, and
// a field of a kind it does not take is refused when the command is built.
func TestDeclareBindsDefaults(t *testing.T) {
	t.Parallel()
	var v struct {
		s   string
		r   []string
		l   []string
		n   int
		d   []int
		ok  bool
		ms  flagval.Millis
		bad complex128
	}
	v.s, v.r, v.l, v.n, v.d, v.ok = "x", []string{"a"}, []string{"a", "b"}, 3, []int{1, 2}, true
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	declare(fs,
		opt{"S", "s", "", &v.s, ""}, opt{"R", "r", "", (*flagval.Repeated)(&v.r), ""}, opt{"L", "l", "", &v.l, ""},
		opt{"N", "n", "", &v.n, ""}, opt{"D", "d", "", &v.d, ""}, opt{"OK", "ok", "", &v.ok, ""}, opt{"MS", "ms", "", &v.ms, ""})
	want := map[string]string{"s": "x", "r": "[a]", "l": "[a,b]", "n": "3", "d": "[1,2]", "ok": "true", "ms": "0"}
	for name, def := range want {
		if got := fs.Lookup(name).DefValue; got != def {
			t.Errorf("--%s default %q; want %q", name, got, def)
		}
	}
	if err := fs.Parse([]string{"--r", "c,d", "--l", "c,d"}); err != nil {
		t.Fatal(err)
	}
	if len(v.r) != 1 || len(v.l) != 2 {
		t.Errorf("--r c,d gave %q, --l c,d gave %q; want one value repeated, two split", v.r, v.l)
	}
	defer func() {
		if recover() == nil {
			t.Error("declare took a complex128 field; want a panic naming the flag")
		}
	}()
	declare(fs, opt{"Bad", "bad", "", &v.bad, ""})
}
