package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A signal to study run reaches the step running (a process of its own,
// in a process group of its own): the step stops and writes what it
// measured, the study records it as interrupted, runs no later step,
// writes its document and exits 130.
func TestStudySignalReachesStep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file, out := filepath.Join(dir, "s.yaml"), filepath.Join(dir, "s.json")
	text := `id: sigtest
title: a study interrupted
source: dbmeter's own test
steps:
  - id: long
    run: null --workers 1 --delay 1ms --duration 60s --warmup 0s --repeat 1 --progress 100ms
  - id: after
    run: null --workers 1 --duration 50ms --repeat 1
tables:
  - id: tp
    title: one worker, 1 ms a call
    step: long
    rows: workload
    columns: target
    figure: throughput
    unit: ops/s
    measured: calls per second
    header: ["null"]
    published:
      noop: [1000]
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "study", "run", file, "--json", out)
	cmd.Env = append(os.Environ(), "DBMETER_TEST_MAIN=1")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	measuring := make(chan bool, 1)
	go func() { // the step's progress lines come through the study's stderr
		sc := bufio.NewScanner(stderr)
		found := false
		for sc.Scan() {
			if !found && strings.Contains(sc.Text(), "ops/s") {
				found = true
				measuring <- true
			}
		}
		if !found {
			measuring <- false
		}
	}()
	select {
	case ok := <-measuring:
		if !ok {
			t.Fatal("study run ended before its step's first progress line")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("no progress line from the step within 60s")
	}
	cmd.Process.Signal(syscall.SIGINT)
	if code := wait(t, cmd, 15*time.Second); code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no study document: %v", err)
	}
	var doc struct {
		Steps []struct {
			ID          string `json:"id"`
			Interrupted bool   `json:"interrupted"`
			Error       string `json:"error"`
			Result      *struct {
				Interrupted bool `json:"interrupted"`
				Runs        []struct {
					Ops int64 `json:"ops"`
				} `json:"runs"`
			} `json:"result"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Steps) != 1 {
		t.Fatalf("%d steps recorded, want the interrupted one alone: %s", len(doc.Steps), b)
	}
	st := doc.Steps[0]
	if !st.Interrupted || st.Error != "" || st.Result == nil || !st.Result.Interrupted || len(st.Result.Runs) != 1 || st.Result.Runs[0].Ops == 0 {
		t.Errorf("step %s: want interrupted with the operations it measured: %s", st.ID, b)
	}
	if !strings.Contains(stdout.String(), "step long interrupted") {
		t.Errorf("the study's tables do not say the step was interrupted:\n%s", stdout.String())
	}
}
