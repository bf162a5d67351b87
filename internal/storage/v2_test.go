package storage

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cgroupfsDir lays out a v2 cgroup directory as the kernel would: the
// files exist, io.stat holds stats.
func cgroupfsDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestV2WritesIoMaxAndMemoryMax(t *testing.T) {
	d := Device{Name: "nvme0n1", Major: 259, Minor: 0}
	for _, tc := range []struct {
		p            Profile
		ioMax, memMx string // "" when the file must stay untouched
	}{
		{Profile{ReadIOPS: 150, WriteIOPS: 150, ReadBPS: 200 << 20, WriteBPS: 200 << 20},
			"259:0 riops=150 wiops=150 rbps=209715200 wbps=209715200", ""},
		{Profile{WriteIOPS: 50, MemoryBytes: 256 << 20}, "259:0 wiops=50", "268435456"},
		{Profile{MemoryBytes: 1 << 30}, "", "1073741824"},
		{Profile{}, "", ""},
	} {
		dir := cgroupfsDir(t, map[string]string{"io.max": "", "memory.max": ""})
		if err := (v2{}).limit(map[string]string{"": dir}, d, tc.p); err != nil {
			t.Fatalf("%+v: %v", tc.p, err)
		}
		for file, want := range map[string]string{"io.max": tc.ioMax, "memory.max": tc.memMx} {
			got, _ := os.ReadFile(filepath.Join(dir, file))
			if string(got) != want {
				t.Errorf("%+v: %s = %q, want %q", tc.p, file, got, want)
			}
		}
	}
}

func TestV2ReadsIoStat(t *testing.T) {
	stat := "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0\n" +
		"259:0 rbytes=4096000 wbytes=8192 rios=1000 wios=2 dbytes=0 dios=0\n"
	dir := cgroupfsDir(t, map[string]string{"io.stat": stat})
	got, err := (v2{}).counters(map[string]string{"": dir}, Device{Major: 259})
	want := Counters{ReadBytes: 4096000, WriteBytes: 8192, ReadIOs: 1000, WriteIOs: 2}
	if err != nil || got != want {
		t.Errorf("counters = %+v, %v; want %+v", got, err, want)
	}
	// A device the group did no IO on has no line: all zero.
	if got, err := (v2{}).counters(map[string]string{"": dir}, Device{Major: 7}); err != nil || got != (Counters{}) {
		t.Errorf("counters of an idle device = %+v, %v; want zero", got, err)
	}
}

func TestV1ReadsThrottleStats(t *testing.T) {
	dir := cgroupfsDir(t, map[string]string{
		"blkio.throttle.io_service_bytes": "254:0 Read 409600\n254:0 Write 8192\n254:0 Sync 8192\n254:0 Async 409600\n254:0 Total 417792\nTotal 417792\n",
		"blkio.throttle.io_serviced":      "254:0 Read 100\n254:0 Write 2\n254:0 Total 102\nTotal 102\n",
	})
	got, err := (v1{}).counters(map[string]string{"blkio": dir}, Device{Major: 254})
	want := Counters{ReadBytes: 409600, WriteBytes: 8192, ReadIOs: 100, WriteIOs: 2}
	if err != nil || got != want {
		t.Errorf("counters = %+v, %v; want %+v", got, err, want)
	}
}

// A v2 cgroup that does not delegate io and memory to its children is
// refused: enabling them would change a cgroup dbmeter did not make.
func TestV2RefusesUndelegated(t *testing.T) {
	for _, tc := range []struct {
		subtree string
		ok      bool
	}{{"cpu io memory pids", true}, {"cpu memory", false}, {"", false}} {
		parent := cgroupfsDir(t, map[string]string{"cgroup.subtree_control": tc.subtree + "\n"})
		g := &Group{l: Layout{Unified: parent}}
		_, err := g.choose()
		var r *Refusal
		if tc.ok != (err == nil) || (!tc.ok && !errors.As(err, &r)) {
			t.Errorf("subtree_control %q: choose = %v", tc.subtree, err)
		}
		if !tc.ok && err != nil && !strings.Contains(err.Error(), "io") {
			t.Errorf("subtree_control %q: %v does not say what is missing", tc.subtree, err)
		}
	}
}

func TestMountsAndPaths(t *testing.T) {
	mi := "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n" +
		"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" +
		"38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n" +
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n" +
		"50 31 0:35 /sub /mnt/blk rw - cgroup cgroup rw,blkio\n"
	m := cgroupMounts(mi)
	want := map[string]string{"memory": "/sys/fs/cgroup/memory", "blkio": "/sys/fs/cgroup/blkio", "": "/sys/fs/cgroup/unified"}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("mount of %q = %q, want %q", k, m[k], v)
		}
	}
	p := cgroupPaths("7:blkio:/\n4:memory:/process_api/abc\n3:cpu,cpuacct:/x\n0::/user.slice\n")
	for k, v := range map[string]string{"blkio": "/", "memory": "/process_api/abc", "cpuacct": "/x", "": "/user.slice"} {
		if p[k] != v {
			t.Errorf("path of %q = %q, want %q", k, p[k], v)
		}
	}
}

func TestV1WritesThrottleFiles(t *testing.T) {
	d := Device{Name: "vda", Major: 254}
	files := []string{"blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device", "blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device"}
	for _, tc := range []struct {
		p    Profile
		want []string // per file, "" when untouched
	}{
		{Profile{ReadIOPS: 150, WriteIOPS: 150, ReadBPS: 200 << 20, WriteBPS: 200 << 20}, []string{"254:0 150", "254:0 150", "254:0 209715200", "254:0 209715200"}},
		{Profile{WriteIOPS: 50}, []string{"", "254:0 50", "", ""}},
		// No IO limit (nvme): a bandwidth no device reaches, so that the
		// kernel keeps the device's counters at all.
		{Profile{MemoryBytes: 256 << 20}, []string{"", "", "254:0 1152921504606846976", ""}},
	} {
		init := map[string]string{"memory.limit_in_bytes": ""}
		for _, f := range files {
			init[f] = ""
		}
		dir := cgroupfsDir(t, init)
		if err := (v1{}).limit(map[string]string{"blkio": dir, "memory": dir}, d, tc.p); err != nil {
			t.Fatal(err)
		}
		for i, f := range files {
			if got, _ := os.ReadFile(filepath.Join(dir, f)); string(got) != tc.want[i] {
				t.Errorf("%+v: %s = %q, want %q", tc.p, f, got, tc.want[i])
			}
		}
	}
}
