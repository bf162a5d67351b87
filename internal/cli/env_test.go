package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// kv --fsync on records the probe for the data directory in env.disk and
// prints it beside the fsync table; --no-disk-probe leaves it out and says
// so; a server family's disk is the result file's directory.
func TestDiskProbeRecorded(t *testing.T) {
	servertest.E2E(t, "probes the disk's fsync under kv on real files")
	t.Parallel()
	tmp := t.TempDir()
	decode := func(path string) result.Document {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var d result.Document
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		return d
	}

	data := filepath.Join(tmp, "kvdata")
	doc := filepath.Join(tmp, "kv.json")
	code, stdout, stderr := run(t, "kv", "--engines", "map", "--ops", "set", "--fsync", "true", "--count", "50", "--dir", data, "--json", doc)
	if code != 0 {
		t.Fatalf("kv: exit %d, stderr %q", code, stderr)
	}
	d := decode(doc)
	p := d.Env.Disk.Fsync
	if d.Env.Disk.Path != data || p == nil || p.Error != "" || p.Ops < 1 || p.P50Ns <= 0 || p.OpsPerS <= 0 {
		t.Errorf("env.disk = %+v, fsync %+v; want the probe of %s", d.Env.Disk, p, data)
	}
	if !strings.Contains(stdout, "disk  "+data+": ") || !strings.Contains(stdout, "one fsync (8,192 B write + fdatasync") {
		t.Errorf("the fsync-on table does not say what one fsync costs:\n%s", stdout)
	}

	doc = filepath.Join(tmp, "kv-noprobe.json")
	code, stdout, stderr = run(t, "kv", "--engines", "map", "--ops", "set", "--fsync", "true", "--count", "50", "--dir", data, "--no-disk-probe", "--json", doc)
	if code != 0 {
		t.Fatalf("kv --no-disk-probe: exit %d, stderr %q", code, stderr)
	}
	if d := decode(doc); d.Env.Disk.Fsync != nil {
		t.Errorf("--no-disk-probe: env.disk.fsync = %+v, want none", d.Env.Disk.Fsync)
	}
	if !strings.Contains(stdout, "no fsync probe in this result (the run skipped the disk probe)") {
		t.Errorf("--no-disk-probe: the table does not say the probe was skipped:\n%s", stdout)
	}

	results := filepath.Join(tmp, "results")
	if err := os.Mkdir(results, 0o755); err != nil {
		t.Fatal(err)
	}
	doc = filepath.Join(results, "null.json")
	if code, _, stderr := run(t, "null", "--count", "10", "--quiet", "--json", doc); code != 0 {
		t.Fatalf("null: exit %d, stderr %q", code, stderr)
	}
	if d := decode(doc); d.Env.Disk.Path != results || d.Env.Disk.Fsync == nil {
		t.Errorf("null --json %s: env.disk = %+v, want the probe of %s", doc, d.Env.Disk, results)
	}
	if left, _ := os.ReadDir(results); len(left) != 1 {
		t.Errorf("%s holds %d files after the run, want only the result", results, len(left))
	}
}
