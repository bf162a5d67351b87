package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// The lists that choose what runs are not settings of what ran: two real
// kv runs with different --engines lists compare the engine both ran, and
// list the other; several documents per side pool their repetitions.
func TestCompareSelectionLists(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	kv := func(name, engines string) string {
		path := filepath.Join(dir, name)
		args := []string{"kv", "--engines", engines, "--ops", "get", "--keys", "1000", "--duration", "50ms", "--warmup", "0s",
			"--repeat", "2", "--no-disk-probe", "--quiet", "--json", path}
		if code, _, stderr := run(t, args...); code != 0 {
			t.Fatalf("dbmeter %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		return path
	}
	both, one, again := kv("both.json", "map:memory,btree:memory"), kv("one.json", "map:memory"), kv("again.json", "map:memory")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"different engine lists", []string{both, one}, []string{"kv map:memory get  (closed loop", "base n=2, new n=2", "only in base: kv btree:memory get"}},
		{"two documents for new", []string{both, "--", one, again}, []string{"kv map:memory get  (closed loop", "base n=2, new n=4", "new:  again.json"}},
	}
	t.Run("nothing in common", func(t *testing.T) {
		null := filepath.Join(dir, "null.json")
		if code, _, stderr := run(t, "null", "--duration", "50ms", "--warmup", "0s", "--no-disk-probe", "--quiet", "--json", null); code != 0 {
			t.Fatalf("null: exit %d: %s", code, stderr)
		}
		code, _, stderr := run(t, "compare", one, null)
		if code != 1 || !strings.Contains(stderr, "dbmeter: nothing compared: no run matches") || !strings.Contains(stderr, "name it: --vary KNOB") {
			t.Errorf("compare of a kv and a null run: exit %d, stderr %q; want 1 and what to do", code, stderr)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"compare"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("compare: exit %d: %s\n%s", code, stderr, stdout)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("compare output lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

func TestCompareUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"a.json"}, "compare needs two result documents"},
		{[]string{"a.json", "b.json", "c.json"}, "several per side: BASE.json... -- NEW.json..."},
		{[]string{"--", "b.json"}, "at least one base document before --"},
		{[]string{"a.json", "--"}, "at least one new document after --"},
	}
	for _, tt := range tests {
		code, _, stderr := run(t, append([]string{"compare"}, tt.args...)...)
		if code != 2 || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("compare %s: exit %d, stderr %q; want 2 and one line with %q", strings.Join(tt.args, " "), code, stderr, tt.want)
		}
	}
}
