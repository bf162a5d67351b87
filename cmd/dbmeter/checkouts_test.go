package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkout is a copy of scripts/dev-services.sh at dir/scripts, which is
// all the script knows of the checkout it belongs to.
type checkout struct{ dir, script string }

func newCheckout(t *testing.T) checkout {
	t.Helper()
	src, err := os.ReadFile("../../scripts/dev-services.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "scripts", "dev-services.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, src, 0o755); err != nil {
		t.Fatal(err)
	}
	return checkout{dir: dir, script: script}
}

// run runs the checkout's script with its default state file (no
// DBMETER_SERVICES_STATE) and returns stdout and the exit code.
func (c checkout) run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(c.script, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DBMETER_SERVICES_STATE=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("dev-services.sh %s: %v", strings.Join(args, " "), err)
	}
	if code != 0 && args[0] != "status" {
		t.Fatalf("dev-services.sh %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String(), code
}

// env returns the exports of `env` as a map.
func (c checkout) env(t *testing.T) map[string]string {
	t.Helper()
	out, _ := c.run(t, "env")
	env := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		if ok {
			env[k] = strings.Trim(v, "'")
		}
	}
	return env
}

// TestServicesPerCheckout is issue 35's "done when": `up` run from two
// checkouts gives two pairs of servers, and `down` in one leaves the
// other's running. Before, both shared /tmp/dbmeter-services.state: the
// second `up` reported the first pair as already up, and either `down`
// took it from under the other.
func TestServicesPerCheckout(t *testing.T) {
	if os.Getenv("DBMETER_E2E") != "1" {
		t.Skip("starts two pairs of servers: set DBMETER_E2E=1 (make test does)")
	}
	a, b := newCheckout(t), newCheckout(t)
	for _, c := range []checkout{a, b} {
		t.Cleanup(func() { c.run(t, "down") })
		c.run(t, "up")
	}
	ea, eb := a.env(t), b.env(t)
	for _, k := range []string{"DBMETER_SERVICES_DIR", "PGPORT", "DBMETER_CLICKHOUSE_TCP_ADDR", "DBMETER_CLICKHOUSE_HTTP_URL"} {
		if ea[k] == "" || ea[k] == eb[k] {
			t.Errorf("%s: checkout a has %q, b has %q: want two different pairs", k, ea[k], eb[k])
		}
	}
	// env exports what ch insert and ch query read without --dsn.
	if ea["DBMETER_CLICKHOUSE_DSN"] == "" || ea["DBMETER_CLICKHOUSE_DSN"] != ea["DBMETER_CLICKHOUSE_LEGACY_DSN"] {
		t.Errorf("env: DBMETER_CLICKHOUSE_DSN = %q, want the legacy server's %q", ea["DBMETER_CLICKHOUSE_DSN"], ea["DBMETER_CLICKHOUSE_LEGACY_DSN"])
	}
	code, _, stderr := dbmeter(t, []string{"DBMETER_CLICKHOUSE_DSN=" + eb["DBMETER_CLICKHOUSE_DSN"]},
		"ch", "insert", "--clients", "clickhouse-go-v1", "--schema", "numbers", "--create", "--rows", "1000", "--batch", "1000")
	if code != 0 {
		t.Errorf("ch insert without --dsn after env: exit %d\n%s", code, stderr)
	}

	a.run(t, "down")
	if out, code := a.run(t, "status"); code != 3 {
		t.Errorf("status in a after its down: exit %d, want 3\n%s", code, out)
	}
	if out, code := b.run(t, "status"); code != 0 {
		t.Errorf("status in b after a's down: exit %d, want 0 (b's servers still running)\n%s", code, out)
	}
	if _, err := os.Stat(ea["DBMETER_SERVICES_DIR"]); !os.IsNotExist(err) {
		t.Errorf("a's directory %s after its down: %v, want it removed", ea["DBMETER_SERVICES_DIR"], err)
	}
	if _, err := os.Stat(eb["DBMETER_SERVICES_DIR"]); err != nil {
		t.Errorf("b's directory after a's down: %v", err)
	}
}
