package sysinfo

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

func TestToolFrom(t *testing.T) {
	t.Parallel()
	const rev = "c94b0a389c918cb5c7042edc17c3325e52f321c4"
	vcs := func(modified string, more ...debug.BuildSetting) []debug.BuildSetting {
		return append([]debug.BuildSetting{
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-11-23T12:00:00Z"}, {Key: "vcs.modified", Value: modified},
		}, more...)
	}
	for _, c := range []struct {
		name     string
		main     string // bi.Main.Version
		settings []debug.BuildSetting
		version  string
		modified bool
		tags     []string
	}{
		// go install github.com/dbmeter/dbmeter/cmd/dbmeter@v1.2.0: no VCS stamp.
		{"release", "v1.2.0", nil, "v1.2.0", false, []string{}},
		// go build at a tagged commit (Go ≥ 1.24 reads the tag).
		{"build at a tag", "v1.2.0", vcs("false"), "v1.2.0", false, []string{}},
		{"build at a tag with changes", "v1.2.0+dirty", vcs("true"), "c94b0a389c91-dirty", true, []string{}},
		{"clean checkout", "v0.0.0-20261123120000-c94b0a389c91", vcs("false"), "c94b0a389c91", false, []string{}},
		{"dirty checkout", "v0.0.0-20261123120000-c94b0a389c91+dirty", vcs("true"), "c94b0a389c91-dirty", true, []string{}},
		{"older Go, clean", "(devel)", vcs("false"), "c94b0a389c91", false, []string{}},
		{"rocksdb build", "(devel)", vcs("false", debug.BuildSetting{Key: "-tags", Value: "rocksdb,netgo"}), "c94b0a389c91", false, []string{"rocksdb", "netgo"}},
		// go install …@c94b0a389c91: the pseudo-version names the commit.
		{"install at a commit", "v0.0.0-20261123120000-c94b0a389c91", nil, "v0.0.0-20261123120000-c94b0a389c91", false, []string{}},
		{"go run", "(devel)", nil, "devel", false, []string{}},
	} {
		bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/dbmeter/dbmeter", Version: c.main}, Settings: c.settings}
		got := toolFrom(bi)
		if got.Version != c.version || got.Modified != c.modified || !slices.Equal(got.Tags, c.tags) || got.Go != "go1.26.8" || got.Name != "dbmeter" {
			t.Errorf("%s: main version %q: got %+v, want version %q modified %v tags %q", c.name, c.main, got, c.version, c.modified, c.tags)
		}
		if c.settings != nil && (got.Revision != rev || got.RevisionTime != "2026-11-23T12:00:00Z") {
			t.Errorf("%s: got revision %q at %q, want %s", c.name, got.Revision, got.RevisionTime, rev)
		}
	}
}

// A sysfs tree the way the kernel lays it out: /sys/dev/block/MAJ:MIN
// links to the device directory, a partition sits inside its disk.
func TestDescribeDevice(t *testing.T) {
	t.Parallel()
	sys := t.TempDir()
	write := func(path, s string) {
		t.Helper()
		p := filepath.Join(sys, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		p := filepath.Join(sys, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(sys, target), p); err != nil {
			t.Fatal(err)
		}
	}
	nvme := "devices/pci0000:00/nvme/nvme0/nvme0n1"
	write(nvme+"/queue/rotational", "0\n")
	write(nvme+"/device/model", "Samsung SSD 980 PRO 1TB                 \n")
	write(nvme+"/nvme0n1p2/partition", "2\n")
	write("bus/drivers/nvme/.keep", "")
	link("bus/drivers/nvme", nvme+"/device/driver")
	link(nvme+"/nvme0n1p2", "dev/block/259:2")
	vda := "devices/pci0000:00/virtio1/block/vda"
	write(vda+"/queue/rotational", "1\n")
	write(vda+"/device/vendor", "0x1af4\n")
	write("bus/drivers/virtio_blk/.keep", "")
	link("bus/drivers/virtio_blk", vda+"/device/driver")
	link(vda, "dev/block/254:0")

	for _, c := range []struct {
		name         string
		major, minor uint32
		want         result.Disk
	}{
		{"NVMe partition: the disk's facts", 259, 2, result.Disk{Device: "nvme0n1", Model: "Samsung SSD 980 PRO 1TB", Driver: "nvme"}},
		{"virtio disk: no model, rotational by default", 254, 0, result.Disk{Device: "vda", Driver: "virtio_blk", Rotational: true}},
		{"no block device (tmpfs)", 0, 45, result.Disk{}},
	} {
		var got result.Disk
		describeDevice(&got, sys, c.major, c.minor)
		if got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestProbeFsync(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p, err := probeFsync(dir, 20, 0, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if p.Ops != 20 || p.WriteBytes != 8192 || p.MinNs <= 0 || p.MinNs > p.P50Ns || p.P50Ns > p.P99Ns || p.P99Ns > p.MaxNs || p.OpsPerS <= 0 {
		t.Errorf("got %+v, want 20 ops with 0 < min ≤ p50 ≤ p99 ≤ max", p)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the probe left %d files in %s", len(left), dir)
	}
	// The budget cuts the count short, after at least one operation.
	if p, err := probeFsync(dir, 1000, 0, time.Nanosecond); err != nil || p.Ops != 1 {
		t.Errorf("with a spent budget: got %+v, %v; want 1 op", p, err)
	}
	// The minimum time holds it past its count (a throttle's first slice).
	if p, err := probeFsync(dir, 1, 50*time.Millisecond, time.Minute); err != nil || p.Ops < 2 || float64(p.Ops)/p.OpsPerS < 0.05 {
		t.Errorf("with 50 ms to run for one op: got %+v, %v; want more ops over at least 50 ms", p, err)
	}
	// A directory the probe cannot write to is reported, not fatal.
	got := ProbeFsync(filepath.Join(dir, "missing"))
	if got.Error == "" || got.Ops != 0 {
		t.Errorf("probe of a missing directory: got %+v, want an error and no figures", got)
	}
}

func TestRank(t *testing.T) {
	t.Parallel()
	var d []time.Duration
	for i := 1; i <= 200; i++ {
		d = append(d, time.Duration(i))
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 100}, {0.99, 198}, {1, 200}, {0, 1}} {
		if got := rank(d, c.q); got != c.want {
			t.Errorf("rank(1..200, %v) = %v, want %v", c.q, got, c.want)
		}
	}
	if got := rank(d[:1], 0.99); got != 1 {
		t.Errorf("rank of one sample = %v, want 1", got)
	}
}
