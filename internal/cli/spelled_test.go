package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbmeter/dbmeter/internal/calibrate"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// TestCHDSNKeySpelledForTheCommand: ch insert and ch query share the DSN
// parser, not their flags. A DSN key dbmeter refuses is told to use the
// flag that sets the same thing only by the command that has that flag,
// and no message names a flag the command lacks or a {Field} unspelled.
func TestCHDSNKeySpelledForTheCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd, key string
		want     string // the flag the message names; "" none
	}{
		{"insert", "no_delay=1", "use --tcp-nodelay"},
		{"query", "no_delay=1", ""},
		{"insert", "block_size=10", "use --batch"},
		{"query", "block_size=10", ""},
		{"query", "max_open_conns=4", "use --pool-max-open"},
		{"query", "pool_size=4", "use --pool-max-open"},
		{"query", "max_idle_conns=4", "use --pool-max-idle"},
		{"query", "conn_max_lifetime=1m", "use --pool-lifetime"},
		{"insert", "max_open_conns=4", ""},
		{"insert", "conn_max_lifetime=1m", ""},
	}
	other := map[string][]string{
		"insert": {"--pool-max-open", "--pool-max-idle", "--pool-lifetime", "--matrix"},
		"query":  {"--tcp-nodelay", "--batch", "--rows"},
	}
	for _, tt := range tests {
		t.Run(tt.cmd+"/"+tt.key, func(t *testing.T) {
			t.Parallel()
			args := []string{"ch", tt.cmd, "--dsn", "clickhouse://u:s3cretpw@127.0.0.1:1/db?" + tt.key}
			if tt.cmd == "query" {
				args = append(args, "--preset", "count")
			}
			code, _, stderr := run(t, args...)
			key := strings.SplitN(tt.key, "=", 2)[0]
			if code != 2 || !strings.Contains(stderr, "DSN key "+key+" is not taken") {
				t.Fatalf("%s: exit %d, stderr %q; want exit 2 and the key refused", strings.Join(args, " "), code, stderr)
			}
			if tt.want != "" && !strings.Contains(stderr, tt.want) {
				t.Errorf("ch %s: stderr %q; want %q", tt.cmd, stderr, tt.want)
			}
			if tt.want == "" && strings.Contains(stderr, "use --") {
				t.Errorf("ch %s: stderr %q names a flag for %s, which ch %s has none for", tt.cmd, stderr, key, tt.cmd)
			}
			for _, f := range other[tt.cmd] {
				if strings.Contains(stderr, f) {
					t.Errorf("ch %s: stderr %q names %s, a flag of the other command", tt.cmd, stderr, f)
				}
			}
			assertSpelled(t, stderr)
		})
	}
}

// TestFamilyMessagesSpelledInMain: messages a family returns past the
// command's own spelling (ch query's Validate, after Resolve) reach the
// user with the flags of the command that ran.
func TestFamilyMessagesSpelledInMain(t *testing.T) {
	t.Parallel()
	const dsn = "tcp://127.0.0.1:1?username=u&password=s3cretpw"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"ch", "query", "--dsn", dsn, "--preset", "count", "--clients", "http", "--prepared"}, "drop --prepared"},
		{[]string{"ch", "query", "--dsn", dsn, "--preset", "count", "--pool-max-idle", "0,10"}, "--pool-max-idle has 2 values: add --matrix"},
		{[]string{"ch", "query", "--dsn", dsn, "--preset", "count", "--decode", "diagonal"}, `--decode "diagonal": want row or column`},
		{[]string{"ch", "insert", "--dsn", "clickhouse://h", "--rows", "10", "--warmup", "1s"}, "--warmup needs --duration: with --rows"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:2], " ")+" "+tt.want, func(t *testing.T) {
			t.Parallel()
			code, _, stderr := run(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tt.args, " "), code, stderr, tt.want)
			}
			assertSpelled(t, stderr)
		})
	}
}

var fieldToken = regexp.MustCompile(`\{[A-Z][A-Za-z]*\}`)

// assertSpelled fails when a {Field} reached the user unspelled.
func assertSpelled(t *testing.T, stderr string) {
	t.Helper()
	if m := fieldToken.FindString(stderr); m != "" {
		t.Errorf("stderr %q shows %s unspelled", stderr, m)
	}
}

// TestCHInsertServerRefusalSpelled: a refusal that comes from the server
// side of a run (the table is missing), past the command's own checks,
// still names ch insert's flags (against the real 18.16 server).
func TestCHInsertServerRefusalSpelled(t *testing.T) {
	t.Parallel()
	dsn := legacyDSN(t)
	code, _, stderr := run(t, "ch", "insert", "--dsn", dsn, "--clients", "clickhouse-go-v1", "--table", "default.dbmeter_spelled_nope", "--rows", "10", "--batch", "10")
	if code == 0 || !strings.Contains(stderr, "add --create to have dbmeter create it") {
		t.Errorf("ch insert into a missing table: exit %d, stderr %q; want a failure saying add --create", code, stderr)
	}
	assertSpelled(t, stderr)
}

// TestOutputMessagesSpelledForTheCommand: the sink, metrics, merge and
// calibrate name their settings as {Field}; each message reaches the user
// with the flag of the command that ran, on every command that shares it
// (an error through Main, a warning on stderr).
func TestOutputMessagesSpelledForTheCommand(t *testing.T) {
	t.Parallel()
	srv, err := startNullServer("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	doc := filepath.Join(dir, "r.json") // merge refuses its arguments before it reads any
	nowhere := "/nonexistent-dir/r"
	kv := []string{"kv", "--engines", "badger", "--ops", "set", "--keys", "10", "--duration", "20ms", "--warmup", "0", "--dir", filepath.Join(dir, "kv")}
	chQuery := []string{"ch", "query", "--dsn", "clickhouse://" + srv.Addr() + "/default", "--preset", "count", "--clients", "ch-go", "--duration", "20ms"}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"null metrics", []string{"null", "--metrics-addr", "256.0.0.1:1"}, 2, "cannot serve --metrics-addr 256.0.0.1:1"},
		{"kv metrics", append(kv, "--metrics-addr", "256.0.0.1:1"), 2, "cannot serve --metrics-addr 256.0.0.1:1"},
		{"null hdr-log", []string{"null", "--hdr-log", nowhere + ".hlog"}, 2, "cannot write --hdr-log " + nowhere + ".hlog"},
		{"merge hdr-log", []string{"merge", doc, doc, filepath.Join(dir, "a.hlog")}, 2, "per shard document and --hdr-log OUT.hlog for their merge"},
		{"null json", []string{"null", "--json", nowhere + ".json"}, 2, "cannot write --json " + nowhere + ".json"},
		{"calibrate json", []string{"calibrate", "--json", nowhere + ".json"}, 2, "cannot write --json " + nowhere + ".json"},
		{"calibrate md", []string{"calibrate", "--md", nowhere + ".md"}, 2, "cannot write --md " + nowhere + ".md"},
		{"null checkpoint", []string{"null", "--duration", "200ms", "--warmup", "0", "--quiet", "--json", "/dev/full"}, 1, "cannot checkpoint --json /dev/full"},
		{"calibrate rate", []string{"calibrate", "--rate", "0"}, 2, "--rate must be positive, got 0"},
		{"calibrate max-cpu", []string{"calibrate", "--max-cpu", "-1"}, 2, "--max-cpu must be positive, got -1"},
		{"calibrate max-floor-ratio", []string{"calibrate", "--max-floor-ratio", "0"}, 2, "--max-floor-ratio must be positive, got 0"},
		{"ch query pprof", append(chQuery, "--pprof-addr", "6060"), 2, `--pprof-addr "6060": want HOST:PORT`},
		{"ch query pprof warning", append(chQuery, "--pprof-addr", "0.0.0.0:0", "--quiet"), 0, "warning: --pprof-addr 0.0.0.0:0 is not a loopback address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("dbmeter %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tt.args, " "), code, stderr, tt.code, tt.want)
			}
			assertSpelled(t, stderr)
		})
	}
}

// TestCalibrateAdviceSpelled: calibrate's advice names its own flags and
// the run commands' (which calibrate lacks) in the line it prints under a
// FAIL. The checks fail on purpose: a dispatcher that wakes late.
func TestCalibrateAdviceSpelled(t *testing.T) {
	late := func(by time.Duration) calibrate.Options {
		return calibrate.Options{Sleep: func(d time.Duration) { time.Sleep(d + by) }}
	}
	tests := []struct {
		name  string
		check func(t *testing.T) (calibrate.Check, error)
		want  []string
	}{
		{"lag", func(*testing.T) (calibrate.Check, error) {
			cs, err := calibrate.Scheduler(context.Background(), 1000, 100*time.Millisecond, 100*time.Microsecond, 1, late(2*time.Millisecond))
			if err != nil {
				return calibrate.Check{}, err
			}
			return cs[0], nil
		}, []string{"try calibrate --rate with a lower rate", "closed loop (--workers without --rate)"}},
		{"capacity", func(t *testing.T) (c calibrate.Check, err error) { // a fake clock: seconds of search in no time
			synctest.Test(t, func(t *testing.T) {
				c, err = calibrate.Capacity(context.Background(), 10*time.Millisecond, 10, time.Second, 0.05, late(5*time.Millisecond))
			})
			return c, err
		}, []string{": --find-max-rate answers from this machine"}},
	}
	spelled := calibrateSpelling(newCalibrateCmd(Env{}).Flags())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.check(t)
			if err != nil {
				t.Fatal(err)
			}
			line := usage.SpellText(c.String(), spelled)
			if !strings.HasPrefix(line, "FAIL") {
				t.Fatalf("check passed with a late dispatcher: %q", line)
			}
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("calibrate prints %q; want %q", line, w)
				}
			}
			assertSpelled(t, line)
		})
	}
}
