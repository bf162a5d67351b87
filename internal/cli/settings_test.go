package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Two null runs that differ only in how they were observed are the same
// test: compare compares them, and the document keeps the observation out
// of the runs' params. Every flag of null that settingRoles marks as an
// observation has a row; a newly marked one fails the test until it has.
// Not parallel: --cpuprofile takes the process's one CPU profiler.
func TestCompareAcrossObservationFlags(t *testing.T) {
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	base := []string{"null", "--duration", "100ms", "--warmup", "0s", "--workers", "1"}
	tests := []struct {
		flag string
		args []string // given to the second run only
	}{
		{"json", nil}, // every pair differs in it: each run writes its own
		{"html", []string{"--html", in("r.html")}},
		{"md", []string{"--md", in("r.md")}},
		{"csv", []string{"--csv", in("r.csv")}},
		{"hdr-log", []string{"--hdr-log", in("r.hlog")}},
		{"quiet", []string{"--quiet"}},
		{"metrics-addr", []string{"--metrics-addr", "127.0.0.1:0"}},
		{"no-disk-probe", []string{"--no-disk-probe"}},
		{"cpuprofile", []string{"--cpuprofile", in("cpu.pprof")}},
		{"progress", []string{"--progress", "20ms"}},
		{"shard", []string{"--shard", "0/1"}},
		{"start-at", []string{"--start-at", "+10ms"}},
		{"help", nil}, // asks for help and runs nothing: it can differ in no pair of runs
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.flag] = true
	}
	for _, name := range observationFlags(t, "null") {
		if !covered[name] {
			t.Errorf("--%s is marked as an observation of null runs but has no row here", name)
		}
	}
	baseDoc := in("base.json")
	if code, _, stderr := run(t, append(slices.Clone(base), "--json", baseDoc)...); code != 0 {
		t.Fatalf("base run: exit %d: %s", code, stderr)
	}
	for _, tt := range tests {
		t.Run(tt.flag, func(t *testing.T) {
			if tt.flag == "help" {
				t.Skip("--help runs nothing")
			}
			doc := in(tt.flag + ".json")
			args := append(append(slices.Clone(base), "--json", doc), tt.args...)
			if code, _, stderr := run(t, args...); code != 0 {
				t.Fatalf("dbmeter %s: exit %d: %s", strings.Join(args, " "), code, stderr)
			}
			d, err := result.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			name := result.SettingName(tt.flag) // recorded under its declared name
			if _, ok := d.Runs[0].Params[name]; ok {
				t.Errorf("--%s is among the run's params %v; want it in the document's observed settings", tt.flag, d.Runs[0].Params)
			}
			if _, ok := d.Observed[name]; !ok || d.Settings[name].Role != result.Observes {
				t.Errorf("observed %v, declared %+v; want --%s observed and declared as %s", d.Observed, d.Settings[name], tt.flag, name)
			}
			code, stdout, stderr := run(t, "compare", baseDoc, doc)
			if code != 0 || !strings.Contains(stdout, "null null noop") || strings.Contains(stdout, "only in") {
				t.Errorf("compare of runs differing only in --%s: exit %d, stdout:\n%s\nstderr: %s", tt.flag, code, stdout, stderr)
			}
		})
	}
}

// observationFlags are the flags of the command at path (its own and the
// ones it inherits) that settingRoles marks as observations.
func observationFlags(t *testing.T, path ...string) []string {
	t.Helper()
	root := newRoot(Env{})
	root.PersistentFlags().String("cpuprofile", "", "") // bound by Main
	root.InitDefaultHelpFlag()
	cmd, _, err := root.Find(path)
	if err != nil {
		t.Fatal(err)
	}
	cmd.InitDefaultHelpFlag()
	roles := settingRoles()
	var out []string
	visit := func(f *pflag.Flag) {
		if roles[f.Name] == result.Observes && !slices.Contains(out, f.Name) {
			out = append(out, f.Name)
		}
	}
	cmd.LocalFlags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	return out
}

// TestKindOf: the document records each flag's kind of value, a list
// flag's as "list" whatever its elements (--rate 50,100 as --workers 1,2).
func TestKindOf(t *testing.T) {
	t.Parallel()
	var rf runFlags
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	rf.bind(fs, load.DefaultConfig())
	for name, want := range map[string]string{"rate": "list", "workers": "list", "duration": "duration", "seed": "int", "json": "string", "quiet": "bool"} {
		if got := kindOf(fs.Lookup(name)); got != want {
			t.Errorf("--%s: kind %q, want %q", name, got, want)
		}
	}
}
