package storage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realLayout is this machine's cgroup layout, or a skip where dbmeter
// cannot make cgroups (not root, no v1 blkio and memory).
func realLayout(t *testing.T) Layout {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to make cgroups")
	}
	l, err := Discover()
	if err != nil {
		t.Fatal(err)
	}
	if l.Blkio == "" || l.Memory == "" {
		t.Skip("no cgroup v1 blkio and memory controllers mounted")
	}
	return l
}

// diskDir is a directory on a block device, for the probe.
func diskDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := DeviceOf(dir, "/sys"); err != nil {
		t.Skipf("the test's temporary directory is on no disk: %v", err)
	}
	return dir
}

// The kernel holds this process to the limits while it is in the group,
// counts its IOs, and the group is gone after Remove, the process back
// where it was.
func TestV1LimitsCountsAndRemoves(t *testing.T) {
	l := realLayout(t)
	dir := diskDir(t)
	ctx := context.Background()
	free, err := Probe(ctx, dir, 400*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile("/proc/self/cgroup")
	g, err := Apply(Config{Profile: Profile{Name: "t", ReadIOPS: 100, WriteIOPS: 50, MemoryBytes: 256 << 20}, DataDir: dir, Layout: &l})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Remove()
	if err := g.Add(os.Getpid()); err != nil {
		t.Fatal(err)
	}
	limited, err := Probe(ctx, dir, 1*time.Second, g)
	if rerr := g.Remove(); rerr != nil {
		t.Fatal(rerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("unlimited: %.0f reads/s, %.0f writes/s; limited: %.0f reads/s, %.0f writes/s, counted %+v",
		free.ReadIOPS, free.WriteIOPS, limited.ReadIOPS, limited.WriteIOPS, *limited.Counted)
	// The throttle lets a short burst through at the start of each slice:
	// a margin of a fifth over the limit.
	if limited.ReadIOPS > 120 || limited.WriteIOPS > 60 {
		t.Errorf("under riops=100,wiops=50 the probe did %.0f reads/s and %.0f writes/s", limited.ReadIOPS, limited.WriteIOPS)
	}
	if c := limited.Counted; c.ReadIOs < int64(limited.ReadOps) || c.WriteIOs < int64(limited.WriteOps) {
		t.Errorf("counters %+v saw fewer IOs than the probe did (%d reads, %d writes)", *c, limited.ReadOps, limited.WriteOps)
	}
	for _, d := range g.Info().Cgroups {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is left after Remove: %v", d, err)
		}
	}
	if after, _ := os.ReadFile("/proc/self/cgroup"); string(after) != string(before) {
		t.Errorf("the process is not back in its cgroups:\nbefore %s\nafter %s", before, after)
	}
}

// Refusals: a profile that cannot hold is refused in one line, never run
// unlimited under its name.
func TestApplyRefuses(t *testing.T) {
	empty := t.TempDir()
	undelegated := cgroupfsDir(t, map[string]string{"cgroup.subtree_control": "cpu pids\n"})
	for _, tc := range []struct {
		name   string
		dir    string
		layout Layout
		want   string
	}{
		{"no controllers", t.TempDir(), Layout{}, "neither the blkio and memory controllers"},
		{"v2 without io delegated", t.TempDir(), Layout{Unified: undelegated}, "does not delegate io and memory"},
		{"tmpfs", "/dev/shm", Layout{Blkio: empty, Memory: empty}, "on no block device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.dir); err != nil {
				t.Skip(err)
			}
			g, err := Apply(Config{Profile: Profile{Name: "hdd", ReadIOPS: 150}, DataDir: tc.dir, Layout: &tc.layout})
			var r *Refusal
			if !errors.As(err, &r) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Apply = %v, %v; want a refusal saying %q", g, err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("refusal is not one line: %q", err)
			}
		})
	}
}

// Sweep removes the cgroup of a dbmeter that died, and keeps a live one's.
func TestSweepRemovesDeadOnly(t *testing.T) {
	l := realLayout(t)
	dead := filepath.Join(l.Blkio, NamePrefix+"999999999-0badcafe") // above pid_max
	live := filepath.Join(l.Memory, NamePrefix+"1-0badcafe")        // init never dies
	for _, d := range []string{dead, live} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	defer os.Remove(live)
	defer os.Remove(dead)
	removed, err := Sweep(l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead run's %s is left (removed %v)", dead, removed)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live run's %s was removed: %v", live, err)
	}
}
