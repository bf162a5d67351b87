package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as dbmeter: with DBMETER_TEST_MAIN=1 it runs main,
// so signals reach a real process.
func TestMain(m *testing.M) {
	if os.Getenv("DBMETER_TEST_MAIN") == "1" {
		os.Args = append([]string{"dbmeter"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

func start(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DBMETER_TEST_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd
}

// startMeasuring starts dbmeter with progress lines on stderr and returns
// once the first one is printed: the run is inside its measured window, so
// a signal then finds operations to keep however long the start-up took
// on a loaded machine (environment, disk and machine probes).
func startMeasuring(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], append(args, "--progress", "100ms")...)
	cmd.Env = append(os.Environ(), "DBMETER_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	first := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		found := false
		for sc.Scan() {
			if !found && strings.Contains(sc.Text(), "ops/s") {
				found = true
				first <- true
			}
		}
		if !found {
			first <- false
		}
	}()
	select {
	case ok := <-first:
		if !ok {
			t.Fatal("dbmeter ended before its first progress line")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("no progress line within 60s of the start")
	}
	return cmd
}

// wait returns the exit code, failing the test if the process outlives limit
// (a hang, not a performance figure).
func wait(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(limit):
		t.Fatalf("dbmeter did not exit within %s of the signal", limit)
		return -1
	}
}

func TestSignalWritesPartialResult(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}}
	for _, tt := range tests {
		t.Run(tt.sig.String(), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "r.json")
			cmd := startMeasuring(t, "null", "--duration", "60s", "--warmup", "0", "--delay", "1ms", "--json", path)
			cmd.Process.Signal(tt.sig)
			if code := wait(t, cmd, 10*time.Second); code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("no partial result: %v", err)
			}
			var doc struct {
				Interrupted bool `json:"interrupted"`
				Runs        []struct {
					Interrupted bool  `json:"interrupted"`
					Ops         int64 `json:"ops"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatalf("partial result is not JSON: %v", err)
			}
			if !doc.Interrupted || len(doc.Runs) != 1 || !doc.Runs[0].Interrupted || doc.Runs[0].Ops == 0 {
				t.Errorf("partial result = %+v, want interrupted with the operations measured so far", doc)
			}
		})
	}
}

func TestSecondSignalQuitsAtOnce(t *testing.T) {
	t.Parallel()
	cmd := start(t, "null", "--duration", "60s", "--warmup", "0", "--delay", "1ms", "--quiet")
	time.Sleep(time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(50 * time.Millisecond) // two signals at once would merge into one
	cmd.Process.Signal(syscall.SIGINT)
	if code := wait(t, cmd, 10*time.Second); code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
}
