package sysinfo_test

import (
	"os"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/storage"
	"github.com/dbmeter/dbmeter/internal/sysinfo"
)

// throttleIOPS is the write limit the test holds the probe to: the hdd
// profile's.
const throttleIOPS = 150

// A cgroup v1 blkio throttle on the disk under the probe's directory, as
// scripts/board-example.sh sets for its hdd machine, must show in the fsync
// cost the board divides sync-bound cells by (report.ProbeOf): at most
// throttleIOPS durable writes a second, each at least one IO. The throttle
// passes an allowance of IOs at the device's speed at the start of each
// 100 ms slice, so a probe's p50, or a probe shorter than a slice, reads
// the device's speed instead (docs/board's first hdd machine: p50 167 µs
// against plain's 172 µs).
func TestFsyncProbeSeesAThrottle(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a blkio cgroup")
	}
	l, err := storage.Discover()
	if err != nil {
		t.Fatal(err)
	}
	if l.Blkio == "" || l.Memory == "" {
		t.Skip("no cgroup v1 blkio and memory controllers mounted")
	}
	dir := t.TempDir()
	if _, err := storage.DeviceOf(dir, "/sys"); err != nil {
		t.Skipf("the test's temporary directory is on no disk: %v", err)
	}
	free := cost(t, sysinfo.ProbeFsync(dir))
	g, err := storage.Apply(storage.Config{Profile: storage.Profile{Name: "fsync-probe-test", WriteIOPS: throttleIOPS}, DataDir: dir, Layout: &l})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Remove()
	if err := g.Add(os.Getpid()); err != nil {
		t.Fatal(err)
	}
	probe := sysinfo.ProbeFsync(dir)
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	limited := cost(t, probe)
	floor := time.Second * 4 / 5 / throttleIOPS // a fifth off for the first slice's allowance
	t.Logf("fsync cost %v free, %v under wiops=%d (p50 %v, %d fsyncs at %.0f/s)", free, limited, throttleIOPS, time.Duration(probe.P50Ns), probe.Ops, probe.OpsPerS)
	if free > floor/2 {
		t.Skipf("the disk is itself nearly as slow as the throttle (%v a durable write): nothing to tell apart", free)
	}
	if limited < floor {
		t.Errorf("under %d write IOs/s the fsync cost read %v, below the %v the limit allows: the probe does not see the throttle", throttleIOPS, limited, floor)
	}
}

// cost is the fsync cost the board reads from a document with probe p.
func cost(t *testing.T, p *result.FsyncProbe) time.Duration {
	t.Helper()
	c, ok := report.ProbeOf(&result.Document{Env: result.Env{Disk: result.Disk{Fsync: p}}}, report.ProbeFsync)
	if !ok {
		t.Fatalf("no fsync cost in the probe %+v", p)
	}
	return time.Duration(c)
}
