package kv_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/sysinfo"
)

// An engine that claims to fsync but does not is what the kv report's
// implausibility warning is for: its fsync-on writes run faster than the
// disk can flush. A real fsyncing engine on the same disk, in the same
// matrix, must not be warned about, or the warning would say nothing.
func TestFsyncWarningCatchesAnEngineThatDoesNotSync(t *testing.T) {
	dir := t.TempDir()
	disk := sysinfo.Disk(dir)
	disk.Fsync = sysinfo.ProbeFsync(dir)
	if disk.Fsync.Error != "" {
		t.Fatalf("probe %s: %s", dir, disk.Fsync.Error)
	}
	// On tmpfs, or a disk whose cache acknowledges at once, an fsync is a
	// few microseconds: as fast as a no-op, so nothing can be told apart.
	if disk.Fsync.MinNs < (20 * time.Microsecond).Nanoseconds() {
		t.Skipf("%s (%s) completes an fsync in %s: it does not flush, so a no-op fsync looks the same; set TMPDIR to a real disk", dir, disk.FS, time.Duration(disk.Fsync.MinNs))
	}
	memory, err := engine.Lookup("map:memory")
	if err != nil {
		t.Fatal(err)
	}
	// nosync is the map engine with its durable-write switch cut: it says
	// it syncs, and Options.Sync reaches it, but it keeps the data in
	// memory and flushes nothing.
	nosync := engine.Engine{
		Name: "nosync",
		Open: func(ctx context.Context, o engine.Options) (engine.Store, error) {
			return memory.Open(ctx, engine.Options{Params: o.Params})
		},
		Sync: "fsync of the file after each write (test engine: does nothing)",
	}
	synced, err := engine.Lookup("map") // appends to a file and fsyncs it on every write
	if err != nil {
		t.Fatal(err)
	}
	cfg := load.DefaultConfig()
	cfg.Workers = 2
	cfg.Duration, cfg.Warmup, cfg.Count = 0, 0, 300
	m := &kv.Matrix{
		Engines: []engine.Engine{nosync, synced},
		Ops:     []string{"set"},
		Fsync:   []bool{true},
		Spec:    workload.DefaultSpec(),
		Dir:     dir,
		Load:    cfg,
		Repeat:  1,
	}
	var runs plan.Collector
	if err := plan.Execute(t.Context(), m.Plan(), &runs); err != nil {
		t.Fatal(err)
	}
	doc := &result.Document{Schema: result.Schema, Env: result.Env{Disk: disk}, Runs: runs.Runs}
	var buf bytes.Buffer
	if err := report.Text(&buf, doc); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "disk  "+disk.Path) || !strings.Contains(out, "one fsync (8,192 B write + fdatasync") {
		t.Errorf("the fsync-on table does not say what one fsync costs:\n%s", out)
	}
	if !strings.Contains(out, "WARNING: nosync set with fsync on") {
		t.Errorf("no implausibility warning for an engine that does not sync:\n%s", out)
	}
	if strings.Contains(out, "WARNING: map set") {
		t.Errorf("the map engine, which fsyncs every write, was warned about:\n%s", out)
	}
}
