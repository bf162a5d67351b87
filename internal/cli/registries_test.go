package cli

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/ch/query/clients"
	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
)

// Every family words an unknown name the same way: the closest name, if
// one is near, then every name this build can use.
func TestUnknownNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		family string
		lookup func(string) error
		name   string
		want   string
	}{
		{"kv", func(n string) error { _, err := engine.Lookup(n); return err }, "pebbel",
			`unknown engine "pebbel" (did you mean "pebble"?); known: ` + strings.Join(engine.Names(), ", ")},
		{"kv", func(n string) error { _, err := engine.Lookup(n); return err }, "zzzzzzzz",
			`unknown engine "zzzzzzzz"; known: ` + strings.Join(engine.Names(), ", ")},
		{"pg", func(n string) error { _, err := driver.Lookup(n); return err }, "pgx5",
			`unknown driver "pgx5" (did you mean "pgx"?); known: pgx, pgx-stdlib, pq`},
		{"ch insert", func(n string) error { _, err := insert.Lookup(n); return err }, "clickhouse-go-v3",
			`unknown client "clickhouse-go-v3" (did you mean "clickhouse-go-v1"?); known: ` + strings.Join(insert.Names(), ", ")},
		{"ch query", func(n string) error { _, err := clients.Lookup(n); return err }, "htp",
			`unknown client "htp" (did you mean "http"?); known: ch-go, clickhouse-go, clickhouse-go-sql, clickhouse-go-v1, http, php-seasclick, python-clickhouse-driver, worker`},
	}
	for _, tt := range tests {
		if err := tt.lookup(tt.name); err == nil || err.Error() != tt.want {
			t.Errorf("%s: Lookup(%q) = %v, want %q", tt.family, tt.name, err, tt.want)
		}
	}
}

// pg's and ch's registries are written sorted, so their names list sorted;
// kv's order is the display order (TestEngineOrderCoversRegistry).
func TestRegistriesSorted(t *testing.T) {
	t.Parallel()
	for family, names := range map[string][]string{"pg": driver.Names(), "ch insert": insert.Names(), "ch query": clients.Names()} {
		if !slices.IsSorted(names) {
			t.Errorf("%s registry is not written sorted: %q", family, names)
		}
	}
}

// Every module a registry names is one dbmeter requires and links: a typo
// in a module path, or a path a library has moved from, fails here. (A test
// binary carries no module list, so go list says what dbmeter links.)
func TestRegisteredModulesAreLinked(t *testing.T) {
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]bool{}
	for line := range strings.Lines(string(gomod)) {
		if f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require ")); len(f) >= 2 {
			required[f[0]] = true
		}
	}
	out, err := exec.Command("go", "list", "-deps", "-tags", "rocksdb", "-f", "{{with .Module}}{{.Path}}{{end}}", "../../cmd/dbmeter").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	linked := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		linked[m] = true
	}
	mods := registeredModules()
	if len(mods) < 10 {
		t.Fatalf("the registries name only %d modules: %q", len(mods), mods)
	}
	for _, m := range mods {
		if !required[m] {
			t.Errorf("module %s is not required in go.mod", m)
		}
		if !linked[m] {
			t.Errorf("module %s is not linked into dbmeter", m)
		}
	}
}
