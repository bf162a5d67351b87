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

// privateServices starts servers of the test's own (scripts/dev-services.sh
// with its own state file) so a test can stop and start them without
// disturbing tests that share the common ones. It returns their env.
func privateServices(t *testing.T) map[string]string {
	t.Helper()
	if os.Getenv("DBMETER_E2E") != "1" {
		t.Skip("fault tests start servers of their own: set DBMETER_E2E=1 (make test does)")
	}
	script, err := filepath.Abs("../../scripts/dev-services.sh")
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "services.state")
	svc := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(script, args...)
		cmd.Env = append(os.Environ(), "DBMETER_SERVICES_STATE="+state)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("dev-services.sh %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return out
	}
	svc("up")
	t.Cleanup(func() { svc("down") })
	env := map[string]string{"state": state, "script": script}
	sc := bufio.NewScanner(bytes.NewReader(svc("env")))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		if ok {
			env[k] = strings.Trim(v, "'")
		}
	}
	return env
}

// serviceCtl stops or starts one of the private servers ("stop", "pg").
func serviceCtl(t *testing.T, env map[string]string, args ...string) {
	t.Helper()
	cmd := exec.Command(env["script"], args...)
	cmd.Env = append(os.Environ(), "DBMETER_SERVICES_STATE="+env["state"])
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("dev-services.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// dbmeter runs this test binary as dbmeter with extra environment and
// returns its exit code, stdout and stderr.
func dbmeter(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "DBMETER_TEST_MAIN=1"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run dbmeter: %v", err)
		}
		code = ee.ExitCode()
	}
	return code, stdout.String(), stderr.String()
}
