package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"
)

// Engines that fill their disk mid-run report the failures as errors in the
// result, and the engines after them still run. The disk is a 2 MiB tmpfs,
// so it needs root (make test runs as root); elsewhere the test skips. Each
// cell starts from a preloaded store: 1,000 keys (about 265 KB) fit, and
// set fills the rest.
func TestKVFullDiskIsErrorsNotACrash(t *testing.T) {
	servertest.E2E(t, "fills a 2 MiB tmpfs with three engines' writes for seconds")
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	path := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := dbmeter(t, nil, "kv", "--engines", "map,bbolt,goleveldb", "--ops", "set",
		"--duration", "2s", "--warmup", "0", "--keys", "1000", "--repeat", "1", "--dir", mnt, "--json", path, "--quiet")
	if code != 1 || strings.Contains(stderr, "goroutine ") {
		t.Fatalf("exit %d, stderr %q: want exit 1 and no crash", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Target string `json:"target"`
			Ops    int64  `json:"ops"`
			Errors int64  `json:"errors"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 3 {
		t.Fatalf("%d runs, want one per engine: %+v", len(doc.Runs), doc.Runs)
	}
	for _, r := range doc.Runs {
		if r.Ops == 0 || r.Errors == 0 {
			t.Errorf("%s: %d ops, %d errors; want writes until the disk filled, then errors", r.Target, r.Ops, r.Errors)
		}
	}
}
