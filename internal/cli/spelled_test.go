package cli

import (
	"regexp"
	"strings"
	"testing"
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
