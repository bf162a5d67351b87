package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bad YCSB setting is one line and exit 2, before any engine runs.
func TestKVYCSBUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"insert order", []string{"--ops", "ycsb-a", "--insert-order", "random"}, "--insert-order must be hashed or ordered"},
		{"distribution", []string{"--ops", "ycsb-a", "--distribution", "zipf"}, `unknown request distribution "zipf"`},
		{"field count", []string{"--ops", "ycsb-c", "--field-count", "0"}, "field count must be at least 1"},
		{"load below workers", []string{"--ops", "ycsb-load", "--keys", "1", "--workers", "2"}, "ycsb-load needs --keys (1) of at least --workers (2)"},
		{"op typo", []string{"--ops", "ycsb-g"}, `unknown --ops value "ycsb-g"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"kv", "--engines", "map:memory"}, tt.args...)
			code, _, stderr := run(t, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != 2 || len(lines) != 1 || !strings.Contains(lines[0], tt.want) {
				t.Errorf("dbmeter %s: exit %d, stderr %q; want exit 2 and one line containing %q", strings.Join(args, " "), code, stderr, tt.want)
			}
		})
	}
}

// ycsb-e on map, which cannot scan, is marked not supported in one line
// and the run still succeeds.
func TestKVYCSBNotSupported(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := run(t, "kv", "--engines", "map:memory,btree:memory", "--ops", "ycsb-e", "--keys", "500",
		"--count", "2000", "--warmup", "0", "--no-disk-probe", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "not supported") || strings.Count(stdout, "map:memory cannot scan") != 1 {
		t.Errorf("stdout does not mark map's ycsb-e not supported in one line:\n%s", stdout)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Target, Workload string
			Ops              int64
			Extra            map[string]float64
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Runs {
		if r.Target == "btree:memory" && r.Workload == "ycsb-e/scan" && r.Ops == 0 {
			t.Errorf("btree ran no scans")
		}
		if r.Target == "map:memory" && (r.Ops != 0 || r.Extra["not_supported"] != 1) {
			t.Errorf("map %s: %d ops, extra %v; want a not-supported cell", r.Workload, r.Ops, r.Extra)
		}
	}
}
