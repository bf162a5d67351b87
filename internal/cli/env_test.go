package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

func TestPrintBuild(t *testing.T) {
	t.Parallel()
	const rev = "c94b0a389c918cb5c7042edc17c3325e52f321c4"
	for _, c := range []struct {
		tool result.Tool
		want string
	}{
		{result.Tool{Version: "c94b0a389c91", Revision: rev, RevisionTime: "2026-11-23T12:00:00Z", Go: "go1.26.8", Tags: []string{"rocksdb"}},
			"dbmeter c94b0a389c91 (go1.26.8 *, tags rocksdb)\n  commit " + rev + " 2026-11-23T12:00:00Z, clean checkout\n"},
		{result.Tool{Version: "c94b0a389c91-dirty", Revision: rev, RevisionTime: "2026-11-23T12:00:00Z", Modified: true, Go: "go1.26.8", Tags: []string{}},
			"dbmeter c94b0a389c91-dirty (go1.26.8 *, no build tags)\n  commit " + rev + " 2026-11-23T12:00:00Z, with uncommitted changes\n"},
		{result.Tool{Version: "devel", Go: "go1.26.8", Tags: []string{}},
			"dbmeter devel (go1.26.8 *, no build tags)\n  no VCS stamp"},
		{result.Tool{Version: "v1.2.0", Go: "go1.26.8", Tags: []string{}},
			"dbmeter v1.2.0 (go1.26.8 *, no build tags)\n"},
	} {
		var buf bytes.Buffer
		printBuild(&buf, c.tool)
		got := buf.String()
		// The platform sits where the * is.
		pre, post, _ := strings.Cut(c.want, "*")
		i := strings.Index(got, ", ")
		if !strings.HasPrefix(got, pre) || i < 0 || !strings.HasPrefix(got[i:], post) {
			t.Errorf("tool %+v: got %q, want %q", c.tool, got, c.want)
		}
	}
}

// kv --fsync on records the probe for the data directory in env.disk and
// prints it beside the fsync table; --no-disk-probe leaves it out and says
// so; a server family's disk is the result file's directory.
func TestDiskProbeRecorded(t *testing.T) {
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
	if !strings.Contains(stdout, "no fsync probe in this result (--no-disk-probe)") {
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
