package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/merge"
	"github.com/dbmeter/dbmeter/internal/result"
)

// TestMergeCommand merges two real null runs made into the shards of one
// test, and reads the result back with report and compare.
func TestMergeCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	var ops int64
	for i := range 2 {
		name := p(fmt.Sprintf("s%d.json", i))
		code, _, stderr := run(t, "null", "--duration", "200ms", "--warmup", "0", "--progress", "50ms", "--quiet", "--json", name)
		if code != 0 {
			t.Fatalf("null run: exit %d: %s", code, stderr)
		}
		ops += makeShard(t, name, i, 2)
	}
	code, stdout, stderr := run(t, "merge", p("s1.json"), p("s0.json"), "--json", p("all.json"), "--md", p("all.md"), "--quiet")
	if code != 0 || stdout != "" {
		t.Fatalf("merge: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "warning: "+merge.IntervalUpperBound) {
		t.Errorf("merge without interval logs: stderr %q, want the warning that interval percentiles are bounds", stderr)
	}
	doc, err := result.ReadFile(p("all.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 || doc.Runs[0].Ops != ops || doc.Runs[0].LatencyHDR == "" {
		t.Errorf("merged runs %+v; want one run of %d ops with its histogram", doc.Runs, ops)
	}
	if b, err := os.ReadFile(p("all.md")); err != nil || !strings.Contains(string(b), "| null | noop | closed |") {
		t.Errorf("all.md: %q, %v", b, err)
	}
	if code, stdout, stderr := run(t, "compare", p("all.json"), p("all.json")); code != 0 || !strings.Contains(stdout, "ops/s") {
		t.Errorf("compare of the merged document: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	// Interval logs: one per shard, merged into --hdr-log.
	for i := range 2 {
		h := hist.New()
		h.RecordValue(int64(1000 * (i + 1)))
		h.SetTag("null")
		h.SetStartTimeMs(1_763_899_200_000)
		h.SetEndTimeMs(1_763_899_201_000)
		var buf bytes.Buffer
		w, err := merge.NewIntervalLogWriter(&buf, time.UnixMilli(1_763_899_200_000))
		if err != nil || w.Write(h) != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p(fmt.Sprintf("s%d.hlog", i)), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr = run(t, "merge", p("s0.json"), p("s1.json"), p("s0.hlog"), p("s1.hlog"), "--hdr-log", p("all.hlog"), "--quiet")
	b, _ := os.ReadFile(p("all.hlog"))
	h, err := merge.NewIntervalLogReader("all.hlog", bytes.NewReader(b)).Next()
	if code != 0 || err != nil || h == nil || h.TotalCount() != 2 || h.Tag() != "null" {
		t.Errorf("merge --hdr-log: exit %d, stderr %q, log %q (%v)", code, stderr, b, err)
	}
	// Given the interval logs, merge does not say the documents lack what
	// the logs hold (issue 35), but where each interval's histogram is.
	if strings.Contains(stderr, "no histogram per interval") || !strings.Contains(stderr, "all.hlog holds each interval's exact merged histogram") {
		t.Errorf("merge with interval logs: stderr %q", stderr)
	}
	code, _, stderr = run(t, "merge", p("s0.json"), p("s1.json"), p("s0.hlog"), "--hdr-log", p("all.hlog"))
	if code != exitUsage || !strings.Contains(stderr, "one interval log (*.hlog) per shard") {
		t.Errorf("merge with one log for two shards: exit %d, stderr %q", code, stderr)
	}

	// The same shard twice is one line naming the file, exit 2.
	code, _, stderr = run(t, "merge", p("s0.json"), p("s0.json"))
	if want := "s0.json: shard 0 of 2 is already given by"; code != exitUsage || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("merge of a shard twice: exit %d, stderr %q; want exit 2 and one line with %q", code, stderr, want)
	}
	code, _, stderr = run(t, "merge", p("missing.json"))
	if code != exitUsage || !strings.Contains(stderr, "cannot read") {
		t.Errorf("merge of a missing file: exit %d, stderr %q", code, stderr)
	}
}

// makeShard marks the document at path as shard i of n, as a --shard run
// will write it, and returns its operations.
func makeShard(t *testing.T, path string, i, n int) int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	doc["command"] = fmt.Sprintf("%s --shard %d/%d", doc["command"], i, n)
	var ops int64
	for _, r := range doc["runs"].([]any) {
		r := r.(map[string]any)
		r["shard"] = map[string]any{"index": i, "count": n, "start_at": "2026-11-23T12:00:00Z", "start_offset_ns": 0}
		ops += int64(r["ops"].(float64))
	}
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return ops
}
