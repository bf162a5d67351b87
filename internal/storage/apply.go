package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
)

// Refusal says why a profile cannot be applied on this machine. dbmeter
// refuses the run rather than run it unlimited under the profile's name.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return "the storage profile cannot be applied: " + r.Reason }

// Config is where and what Apply applies.
type Config struct {
	Profile Profile
	// DataDir is the directory whose device the profile limits.
	DataDir string
	// Layout is where the cgroups go; nil discovers the running system's.
	Layout *Layout
	// Sys is sysfs ("/sys" when empty), to find DataDir's disk.
	Sys string
}

// Apply makes dbmeter's cgroup for cfg's profile on the disk under its
// data directory, with no process in it yet. It refuses (a *Refusal) when
// the profile cannot hold: no block device under the directory, no blkio
// or memory controller, no permission. The caller must Remove the group.
func Apply(cfg Config) (*Group, error) {
	l := cfg.Layout
	if l == nil {
		found, err := Discover()
		if err != nil {
			return nil, err
		}
		l = &found
	}
	sys := cfg.Sys
	if sys == "" {
		sys = "/sys"
	}
	d, err := DeviceOf(cfg.DataDir, sys)
	if errors.Is(err, ErrNoDevice) {
		return nil, &Refusal{Reason: fmt.Sprintf("%s is on no block device (tmpfs, overlay or network filesystem): nothing to throttle; use a directory on a disk", cfg.DataDir)}
	}
	if err != nil {
		return nil, err
	}
	g := &Group{l: *l, info: Info{Profile: cfg.Profile, Device: d}}
	parents, err := g.choose()
	if err != nil {
		return nil, err
	}
	if err := g.make(parents, d); err != nil {
		return nil, err
	}
	return g, nil
}

// choose picks the hierarchy: v1 where blkio and memory are mounted (this
// is where the kernel binds them when both exist), else v2 where the io
// and memory controllers are delegated to dbmeter's cgroup.
func (g *Group) choose() (map[string]string, error) {
	l := g.l
	switch {
	case l.Blkio != "" && l.Memory != "":
		g.b, g.info.Hierarchy = v1{}, "cgroup v1"
		g.info.Unenforced = []string{
			"buffered writes nobody waits for are not throttled: the kernel writes them back from its flusher threads, which are in no cgroup of dbmeter's; " +
				"only writes a process waits for (fsync, O_DSYNC, O_DIRECT) and reads are limited and counted",
			"IOPS limits count IOs as submitted: one large sequential IO counts once",
			"memory already charged elsewhere (page cache read before the move) stays charged there",
		}
		return map[string]string{"blkio": l.Blkio, "memory": l.Memory}, nil
	case l.Unified != "":
		if ok, why := delegated(l.Unified); !ok {
			return nil, &Refusal{Reason: "no blkio and memory controllers of cgroup v1, and on cgroup v2 " + why}
		}
		g.b, g.info.Hierarchy = v2{}, "cgroup v2"
		g.info.Unenforced = []string{
			"IOPS limits count IOs as submitted: one large sequential IO counts once",
			"this cgroup v2 path is tested on files laid out like cgroupfs, not yet on a real v2 kernel",
		}
		return map[string]string{"": l.Unified}, nil
	}
	return nil, &Refusal{Reason: "this system mounts neither the blkio and memory controllers of cgroup v1 nor a cgroup v2 hierarchy"}
}

// leftover matches the name of a cgroup dbmeter made, with its PID.
var leftover = regexp.MustCompile(`^` + NamePrefix + `(\d+)-[0-9a-f]{8}$`)

// Sweep removes the cgroups of dbmeter runs that died without removing
// theirs (a SIGKILL), under the layout's parents and its hierarchies'
// roots: those whose PID is no longer a running process. A process still
// in one goes back to the leftover's parent. It returns what it removed.
func Sweep(l Layout) ([]string, error) {
	var removed []string
	var errs []error
	seen := map[string]bool{}
	for _, parent := range []string{l.Blkio, l.Memory, l.Unified, l.Mounts["blkio"], l.Mounts["memory"], l.Mounts[""]} {
		if parent == "" || seen[parent] {
			continue
		}
		seen[parent] = true
		entries, err := os.ReadDir(parent)
		if err != nil {
			continue
		}
		for _, e := range entries {
			m := leftover.FindStringSubmatch(e.Name())
			if m == nil || !e.IsDir() {
				continue
			}
			if pid, _ := strconv.Atoi(m[1]); alive(pid) {
				continue
			}
			dir := filepath.Join(parent, e.Name())
			g := &Group{dirs: map[string]string{"": dir}}
			if err := g.Remove(); err != nil {
				errs = append(errs, err)
				continue
			}
			removed = append(removed, dir)
		}
	}
	return removed, errors.Join(errs...)
}

// alive says whether pid is a running process.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
