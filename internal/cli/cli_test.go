package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// run invokes dbmeter in-process and returns its exit code and output.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), Env{
		Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" },
	})
	return code, out.String(), errb.String()
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string // in the one line on stderr
	}{
		{"unknown command", []string{"nope"}, `unknown command "nope"`},
		{"unknown flag", []string{"null", "--bogus"}, "unknown flag: --bogus"},
		{"stray argument", []string{"null", "extra"}, "takes no arguments"},
		{"zero workers", []string{"null", "--workers", "0"}, "workers must be at least 1"},
		{"negative workers", []string{"null", "--workers", "-3"}, "workers must be at least 1"},
		{"zero duration", []string{"null", "--duration", "0"}, "--duration must be positive"},
		{"negative duration", []string{"null", "--duration", "-1s"}, "--duration must be positive"},
		{"bad duration", []string{"null", "--duration", "ten"}, "invalid argument"},
		{"zero count", []string{"null", "--count", "0"}, "--count must be positive"},
		{"count and duration", []string{"null", "--count", "5", "--duration", "1s"}, "contradict"},
		{"zero rate", []string{"null", "--rate", "0"}, "--rate must be positive"},
		{"negative rate", []string{"null", "--rate", "-5"}, "--rate must be positive"},
		{"arrival without rate", []string{"null", "--arrival", "poisson"}, "--arrival needs --rate"},
		{"unknown arrival", []string{"null", "--rate", "10", "--arrival", "burst"}, "unknown arrival process"},
		{"max-in-flight below workers", []string{"null", "--rate", "10", "--workers", "4", "--max-in-flight", "2"}, "max-in-flight (2) must be at least --workers (4)"},
		{"zero repeat", []string{"null", "--repeat", "0"}, "--repeat must be at least 1"},
		{"negative warmup", []string{"null", "--warmup", "-1s"}, "warmup must not be negative"},
		{"stall without period", []string{"null", "--stall", "10ms"}, "go together"},
		{"stall longer than period", []string{"null", "--stall", "2s", "--stall-every", "1s"}, "shorter than"},
		{"unwritable json", []string{"null", "--json", "/nonexistent-dir/r.json"}, "cannot write --json"},
		{"calibrate bad rate", []string{"calibrate", "--rate", "0"}, "must be positive"},
		{"kv engine typo", []string{"kv", "--engines", "pebbel"}, `unknown --engines value "pebbel" (did you mean "pebble"?)`},
		{"kv no engine", []string{"kv", "--engines", " , "}, "--engines is empty"},
		{"kv engine typos, all said", []string{"kv", "--engines", "pebbles,rocks"}, `unknown --engines values "pebbles" (did you mean "pebble"?), "rocks"`},
		{"kv param for an engine not run", []string{"kv", "--param", "badger.value_threshold=64", "--engines", "pebble"},
			"--param badger.value_threshold: no such engine in --engines (pebble): add the engine or drop the parameter"},
		{"flag typo suggested", []string{"kv", "--engine", "pebble"}, "unknown flag: --engine (did you mean --engines?)"},
		{"kv op typo", []string{"kv", "--ops", "sett"}, `unknown --ops value "sett"`},
		{"kv dir is a file", []string{"kv", "--engines", "map", "--dir", "/etc/passwd"}, "--dir /etc/passwd is not a directory"},
		{"kv shard", []string{"kv", "--shard", "0/2"}, "drop --shard and --start-at"},
		{"ch query negative pool", []string{"ch", "query", "--dsn", "clickhouse://127.0.0.1:1", "--preset", "count", "--pool-max-idle", "-1"}, "--pool-max-idle must not be negative, got -1"},
		{"ch query negative lifetime", []string{"ch", "query", "--dsn", "clickhouse://127.0.0.1:1", "--preset", "count", "--pool-lifetime", "-1s"}, "--pool-lifetime must not be negative, got -1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, tt.args...)
			if code != 2 {
				t.Errorf("dbmeter %s: exit %d, want 2 (stderr %q)", strings.Join(tt.args, " "), code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "dbmeter: ") || !strings.Contains(lines[0], tt.want) {
				t.Errorf("dbmeter %s: stderr %q, want one line containing %q", strings.Join(tt.args, " "), stderr, tt.want)
			}
			if strings.Contains(stderr, "goroutine") || strings.Contains(stdout, "Usage:") {
				t.Errorf("dbmeter %s: stack trace or usage dump in output", strings.Join(tt.args, " "))
			}
		})
	}
}

// Help offers only flags the command accepts.
func TestHelpOffersWhatRuns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		refused []string
	}{
		{[]string{"kv", "--help"}, []string{"--shard", "--start-at"}},
	}
	for _, tt := range tests {
		code, stdout, stderr := run(t, tt.args...)
		if code != 0 {
			t.Fatalf("dbmeter %s: exit %d (%s)", strings.Join(tt.args, " "), code, stderr)
		}
		for _, f := range tt.refused {
			if strings.Contains(stdout, f) {
				t.Errorf("dbmeter %s lists %s, which it refuses", strings.Join(tt.args, " "), f)
			}
		}
	}
}

// The result document carries every field the foundation issue fixed, with
// these names: reporters and later tools depend on them.
func TestNullDocument(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := run(t, "null", "--workers", "1", "--duration", "300ms", "--warmup", "100ms",
		"--progress", "100ms", "--repeat", "2", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "noop") {
		t.Errorf("stdout has no result table: %q", stdout)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("result is not JSON: %v", err)
	}
	requireKeys(t, "document", doc, "schema", "tool", "started_at", "env", "command", "runs")
	if doc["schema"] != "dbmeter/v2" {
		t.Errorf("schema = %v", doc["schema"])
	}
	requireKeys(t, "env", doc["env"].(map[string]any), "cpu_model", "cpus", "gomaxprocs", "mem_bytes", "os", "kernel", "go", "modules", "disk")
	requireKeys(t, "env.disk", doc["env"].(map[string]any)["disk"].(map[string]any), "path", "fs", "rotational")
	runs := doc["runs"].([]any)
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2 (--repeat 2)", len(runs))
	}
	for i, r := range runs {
		run := r.(map[string]any)
		requireKeys(t, "run", run, "family", "target", "workload", "params", "mode", "workers", "rate", "repeat",
			"duration_s", "ops", "errors", "error_kinds", "dropped", "throughput_ops_s", "rows_s", "bytes_s",
			"latency_ns", "service_ns", "intervals", "client")
		for _, k := range []string{"latency_ns", "service_ns"} {
			requireKeys(t, k, run[k].(map[string]any), "min", "mean", "stddev", "p50", "p90", "p99", "p999", "max")
		}
		requireKeys(t, "client", run["client"].(map[string]any), "cpu_s", "allocs", "alloc_bytes")
		ivs := run["intervals"].([]any)
		if len(ivs) < 2 {
			t.Errorf("run %d: %d intervals, want about 3", i, len(ivs))
		} else {
			requireKeys(t, "interval", ivs[0].(map[string]any), "t_s", "ops", "errors", "p50_ns", "p99_ns")
		}
		if run["mode"] != "closed" || run["repeat"] != float64(i+1) || run["ops"].(float64) <= 0 {
			t.Errorf("run %d: mode %v repeat %v ops %v", i, run["mode"], run["repeat"], run["ops"])
		}
		if d := run["duration_s"].(float64); d < 0.29 || d > 0.31 {
			t.Errorf("run %d: duration_s = %v, want 0.3 (warm-up excluded)", i, d)
		}
	}
}

func requireKeys(t *testing.T, what string, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s has no %q field", what, k)
		}
	}
}

func TestCPUProfile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "cpu.prof")
	if code, _, stderr := run(t, "null", "--duration", "200ms", "--warmup", "0", "--quiet", "--cpuprofile", path); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Errorf("no CPU profile written: %v", err)
	}
	if code, _, _ := run(t, "null", "--cpuprofile", "/nonexistent-dir/cpu.prof"); code != 2 {
		t.Errorf("unwritable --cpuprofile: exit %d, want 2", code)
	}
}

// silentServer accepts connections on loopback and never answers.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		var held []net.Conn // hold them open, say nothing
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	return ln.Addr().String()
}

// A server that accepts connections and never answers is given up on after
// --connect-timeout, with one line, rather than after the OS's minutes.
func TestConnectTimeout(t *testing.T) {
	t.Parallel()
	addr := silentServer(t)
	tests := [][]string{
		{"pg", "--dsn", "postgres://u:Sekr1tPass@" + addr + "/db?sslmode=disable", "-T", "1", "-S", "--connect-timeout", "1s"},
		{"ch", "insert", "--dsn", "tcp://" + addr + "?username=u&password=Sekr1tPass", "--clients", "clickhouse-go-v1", "--rows", "10", "--connect-timeout", "1s"},
		{"ch", "query", "--dsn", "tcp://" + addr + "?username=u&password=Sekr1tPass", "--clients", "clickhouse-go-v1", "--preset", "count", "--duration", "1s", "--connect-timeout", "1s"},
	}
	for _, args := range tests {
		t.Run(args[0]+" "+args[1], func(t *testing.T) {
			t.Parallel()
			done := make(chan struct{})
			var code int
			var stderr string
			go func() {
				code, _, stderr = run(t, args...)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("dbmeter did not give up on a silent server")
			}
			if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || strings.Contains(stderr, "Sekr1tPass") {
				t.Errorf("exit %d, stderr %q: want exit 1 and one line without the password", code, stderr)
			}
			if args[0] == "ch" && !strings.Contains(stderr, "did not answer within --connect-timeout 1s: check the host and port") {
				t.Errorf("stderr %q: want the timeout said as such, with what to check", stderr)
			}
		})
	}
}

// TestSearchPrintsUnderQuiet: --quiet drops the tables, not a capacity
// search's steps and answer, which are how a user follows and reads it.
func TestSearchPrintsUnderQuiet(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := run(t, "null", "--delay", "2ms", "--max-in-flight", "4", "--warmup", "0",
		"--find-max-rate", "--slo", "p99<50ms", "--step-duration", "200ms", "--quiet")
	// On a machine too busy for even the first rate the search fails
	// (exit 1), and prints its steps and answer all the same.
	if (code != exitOK && code != exitFailed) || !strings.Contains(stdout, "step      1") || !strings.Contains(stdout, "capacity null/noop: ") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the steps and the capacity line", code, stdout, stderr)
	}
}

// TestSearchWithNoRateFails: a capacity search that no rate passed failed;
// it exits 1 and says what it tried.
func TestSearchWithNoRateFails(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := run(t, "null", "--delay", "20ms", "--warmup", "0",
		"--find-max-rate", "--slo", "p99<5ms", "--step-duration", "200ms", "--quiet")
	if code != exitFailed || !strings.Contains(stderr, "capacity search failed: no rate met p99<5ms; tried 500/s") ||
		!strings.Contains(stdout, "no rate tried met p99<5ms") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit %d naming the rates tried", code, stdout, stderr, exitFailed)
	}
}
