package study

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A step's servers reach its process through its environment, never its
// command line, which every user of the machine can read: the step here
// is a shell script that records its own /proc/self/cmdline and the
// variable, run as Exec runs a step.
func TestExecServersOutOfArgv(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc: the command line cannot be read back here")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "step.sh")
	body := "#!/bin/sh\ncat /proc/$$/cmdline > \"$OUT/cmdline\"\nprintf '%s' \"$STEP_SERVERS\" > \"$OUT/servers\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	const pw = "hunter2"
	pg1, pg2 := "postgres://u:"+pw+"@db1/x", "postgres://u:"+pw+"@db2/x?sslmode=disable"
	ch := "tcp://127.0.0.1:9000?username=u&password=" + pw
	tests := []struct {
		name    string
		args    []string
		env     []string
		argv    []string
		servers string
	}{
		{"two PostgreSQL servers", []string{"pg", "--dsn", pg1, "-S", "--dsn", pg2, "-T", "1"}, nil, []string{"pg", "-S", "-T", "1"}, pg1 + "\n" + pg2},
		{"ClickHouse, flag=value", []string{"ch", "insert", "--dsn=" + ch}, nil, []string{"ch", "insert"}, ch},
		{"none, and the study's own not passed on", []string{"kv", "--ops", "get"}, []string{"STEP_SERVERS=" + pg1}, []string{"kv", "--ops", "get"}, ""},
		{"after --, an argument", []string{"pg", "--dsn", pg1, "--", "--dsn"}, nil, []string{"pg", "--", "--dsn"}, pg1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			e := Exec{Binary: script, Stderr: io.Discard, Env: append([]string{"OUT=" + out, "PATH=" + os.Getenv("PATH")}, tt.env...),
				ServerFlag: "--dsn", ServerEnv: "STEP_SERVERS"}
			if _, err := e.Step(context.Background(), tt.args, false); err != nil {
				t.Fatal(err)
			}
			cmdline, err := os.ReadFile(filepath.Join(out, "cmdline"))
			if err != nil {
				t.Fatal(err)
			}
			argv := strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")
			if strings.Contains(string(cmdline), pw) || !slices.Equal(argv[len(argv)-len(tt.argv):], tt.argv) {
				t.Errorf("the step's command line is %q, want it to end in %q, with no password", argv, tt.argv)
			}
			if got, _ := os.ReadFile(filepath.Join(out, "servers")); string(got) != tt.servers {
				t.Errorf("the step's servers are %q, want %q", got, tt.servers)
			}
		})
	}
}

// A step reads the servers study run put in its environment as --dsn, in
// order, before any --; with none there, its command line is as given.
func TestStepServers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, servers string
		args, want    []string
	}{
		{"none", "", []string{"pg", "-S"}, []string{"pg", "-S"}},
		{"one", "tcp://a", []string{"ch", "insert"}, []string{"ch", "insert", "--dsn", "tcp://a"}},
		{"two in order", "postgres://a/x\npostgres://b/x", []string{"pg", "-S"}, []string{"pg", "-S", "--dsn", "postgres://a/x", "--dsn", "postgres://b/x"}},
		{"before --", "postgres://a/x", []string{"pg", "--", "db"}, []string{"pg", "--dsn", "postgres://a/x", "--", "db"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StepServers(tt.args, tt.servers, "--dsn"); !slices.Equal(got, tt.want) {
				t.Errorf("StepServers(%q) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}
