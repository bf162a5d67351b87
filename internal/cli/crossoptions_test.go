package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The checks across options live in the families' configs, in {Field}
// words; the CLI spells each as the user's flag, in one line, exit 2.
func TestCrossOptionsSpelled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	json, mix := filepath.Join(dir, "r.json"), filepath.Join(dir, "mix.sql")
	if err := os.WriteFile(mix, []byte("SELECT 1\n2 SELECT 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"pg progress timestamp", []string{"pg", "--progress-timestamp", "-T", "1"}, "--progress-timestamp is allowed only under -P"},
		{"pg -i with outputs", []string{"pg", "-i", "--json", json}, "-i only initialises the tables and writes no result: leave out --json, --html, --md and --csv"},
		{"pg search over a sweep", []string{"pg", "-c", "1,2", "--find-max-rate", "--slo", "p99<15ms"}, "--find-max-rate searches one -c and -j at a time: give each one value"},
		{"pg storage over two servers", []string{"pg", "--storage-profile", "hdd", "-T", "1", "--dsn", "postgres://a@127.0.0.1:1/x", "--dsn", "postgres://a@127.0.0.1:2/x"},
			"--storage-profile applies to one server at a time: give one --dsn"},
		{"ch query search over a mix", []string{"ch", "query", "--dsn", "clickhouse://127.0.0.1:1", "--queries-file", mix, "--find-max-rate", "--slo", "p99<15ms"},
			"--find-max-rate searches one query's capacity, not a --queries-file mix: run the mix at a --rate"},
		{"ch connect timeout", []string{"ch", "insert", "--dsn", "clickhouse://127.0.0.1:1", "--rows", "10", "--connect-timeout", "0s"}, "--connect-timeout must be positive"},
		{"null workers list", []string{"null", "--workers", "1,2"}, "--workers and --rate take one value for this command"},
		{"ch insert schema", []string{"ch", "insert", "--schema", "bytes", "--rows", "10"}, `--schema: no table shape "bytes": want event or numbers or byte`},
		{"ch insert dump schema", []string{"ch", "insert", "--schema", "bytes", "--dump-format", "TSV", "--rows", "3"}, `--schema: no table shape "bytes"`},
		{"kv shape", []string{"kv", "--shape", "grid"}, `--shape must be cells or harness, got "grid"`},
		{"kv start-at", []string{"kv", "--start-at", "+1s"}, "kv runs embedded engines on this machine only: drop --shard and --start-at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, tt.args...)
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("dbmeter %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", strings.Join(tt.args, " "), code, stdout, stderr, tt.want)
			}
		})
	}
}
