package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"
)

// TestStudyDSNRefused: a --dsn that no step could use is refused before
// any step, in one line, exit 2, its password masked.
func TestStudyDSNRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, dsn, want string
	}{
		{"garbage", "garbage", "--dsn garbage: not a PostgreSQL (postgres://…) or ClickHouse (clickhouse://…, tcp://…) address"},
		{"another database", "mysql://u:hunter2@db/x", "--dsn mysql://u:xxxxx@db/x: not a PostgreSQL"},
		{"pg key=value form", "host=db port=5432", "--dsn host=db port=5432: not a PostgreSQL"},
		{"unknown label", "pgx=postgres://db/x", "no placeholder is {pgx}"},
		{"label of the other family", "clickhouse-legacy=postgres://u:hunter2@db/x", "{clickhouse-legacy} wants a ClickHouse"},
		{"bad port", "postgres://u:hunter2@db:port/x", "not a PostgreSQL address"},
		{"bad ClickHouse address", "clickhouse://db:9000/default?compress=zip", "not a ClickHouse address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, "study", "run", "s4", "--quick", "--dsn", tt.dsn)
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) || strings.Contains(stderr, "hunter2") {
				t.Errorf("--dsn %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q, no password", tt.dsn, code, stdout, stderr, tt.want)
			}
		})
	}
}

// counter is a TCP listener that counts the connections made to it and
// closes each at once: a server no step can use, that says whether a
// step tried.
func counter(t *testing.T) (addr string, n *atomic.Int64) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	n = new(atomic.Int64)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return l.Addr().String(), n
}

// TestStudyGivenServersOnly: with servers in the environment, a study
// given --dsn A uses A alone: the environment's PostgreSQL and ClickHouse
// are never connected to, and the step that needs the ClickHouse the
// user did not give is skipped, saying why.
func TestStudyGivenServersOnly(t *testing.T) {
	t.Parallel()
	servertest.E2E(t, "runs a study's steps as processes of their own")
	given, toGiven := counter(t)
	envPG, toEnvPG := counter(t)
	envCH, toEnvCH := counter(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "servers.yaml")
	study := strings.Replace(nullStudy, "steps:\n", "steps:\n  - id: pg\n    run: pg {pg} -S -T 1 -c 1\n  - id: legacy\n    run: ch insert {clickhouse-legacy} --rows 10 --batch 10\n", 1)
	if err := os.WriteFile(file, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"DBMETER_PG_DSN":                "postgres://env:pw@" + envPG + "/env?connect_timeout=2",
		"DBMETER_CLICKHOUSE_LEGACY_DSN": "clickhouse://" + envCH + "/default",
		"DBMETER_CLICKHOUSE_DSN":        "clickhouse://" + envCH + "/default",
	}
	var out, errb bytes.Buffer
	code := Main(context.Background(), Env{
		Args:   []string{"study", "run", file, "--dsn", fmt.Sprintf("postgres://a:pw@%s/a?connect_timeout=2", given)},
		Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(""),
		Getenv: func(k string) string { return env[k] },
	})
	if toGiven.Load() == 0 {
		t.Errorf("the given server was never tried (exit %d):\n%s", code, errb.String())
	}
	if n, m := toEnvPG.Load(), toEnvCH.Load(); n+m > 0 {
		t.Errorf("the environment's servers were connected to (PostgreSQL %d, ClickHouse %d times) although --dsn was given:\n%s", n, m, errb.String())
	}
	if want := "step legacy skipped: no ClickHouse 18.16 server given"; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errb.String())
	}
}

// TestStudyOldClickHouseAsModern: the 18.16 server given as a modern
// ClickHouse is refused before any step, in one line that names the
// placeholder that would serve it.
func TestStudyOldClickHouseAsModern(t *testing.T) {
	t.Parallel()
	legacy := servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN")
	code, stdout, stderr := run(t, "study", "run", "s1", "--quick", "--dsn", legacy)
	want := "{clickhouse} needs 21.8.0 or newer; it would serve {clickhouse-legacy}: give it as --dsn clickhouse-legacy=tcp://"
	if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, stdout, stderr, want)
	}
}

// TestDSNRefusedEverywhere: every command that takes --dsn refuses one
// that is not an address of its kind, before connecting anywhere, in one
// line, exit 2.
func TestDSNRefusedEverywhere(t *testing.T) {
	t.Parallel()
	root := commandTree(Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}, &profiler{})
	var tested int
	for _, cmd := range runnable(root) {
		if cmd.Flags().Lookup("dsn") == nil {
			continue
		}
		path := cmd.CommandPath()
		for _, dsn := range []string{"garbage", "mysql://u:hunter2@db/x"} {
			args := append(strings.Fields(strings.TrimPrefix(path, "dbmeter")), outputArgs[path]...)
			args = append(args, "--dsn", dsn)
			code, stdout, stderr := run(t, args...)
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--dsn") || strings.Contains(stderr, "hunter2") {
				t.Errorf("dbmeter %s: exit %d, stdout %q, stderr %q; want exit 2 and one line naming --dsn, no password", strings.Join(args, " "), code, stdout, stderr)
			}
		}
		tested++
	}
	if tested < 4 {
		t.Errorf("only %d commands take --dsn: the walk lost the tree", tested)
	}
}

// TestStudyOldClickHouseFromTheEnvironment: the environment's modern
// ClickHouse that is the 18.16 server is refused before any step, naming
// the variable that would serve it.
func TestStudyOldClickHouseFromTheEnvironment(t *testing.T) {
	t.Parallel()
	legacy := servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN")
	var out, errb bytes.Buffer
	code := Main(context.Background(), Env{
		Args:   []string{"study", "run", "s1", "--quick"},
		Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(""),
		Getenv: func(k string) string { return map[string]string{"DBMETER_CLICKHOUSE_MODERN_DSN": legacy}[k] },
	})
	want := "{clickhouse} needs 21.8.0 or newer; it would serve {clickhouse-legacy}: set it as DBMETER_CLICKHOUSE_LEGACY_DSN"
	if code != exitUsage || out.String() != "" || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, out.String(), errb.String(), want)
	}
}
