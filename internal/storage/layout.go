package storage

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Layout is where dbmeter may make its cgroups: for cgroup v1, the blkio
// and memory cgroups dbmeter runs in (its cgroups are made inside them,
// so any limit above still holds); for cgroup v2, the one cgroup it runs
// in. Mounts maps each controller ("blkio", "memory", "" for v2) to where
// its hierarchy is mounted, to find other processes' cgroups. A test lays
// out directories of its own.
type Layout struct {
	Blkio, Memory string // v1 parents; "" when the controller is not mounted
	Unified       string // the v2 parent; "" when there is no v2 hierarchy
	Mounts        map[string]string
	Proc          string // "/proc"
}

// Discover reads the layout of the running system from /proc/self.
func Discover() (Layout, error) {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return Layout{}, fmt.Errorf("read the mounts: %w", err)
	}
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return Layout{}, fmt.Errorf("read this process's cgroups: %w", err)
	}
	l := Layout{Mounts: cgroupMounts(string(mi)), Proc: "/proc"}
	paths := cgroupPaths(string(own))
	join := func(ctrl string) string {
		m, ok := l.Mounts[ctrl]
		p, ok2 := paths[ctrl]
		if !ok || !ok2 {
			return ""
		}
		return filepath.Join(m, p)
	}
	l.Blkio, l.Memory, l.Unified = join("blkio"), join("memory"), join("")
	return l, nil
}

// cgroupMounts maps each v1 controller, and "" for the v2 hierarchy, to
// its mount point, from the text of /proc/self/mountinfo.
func cgroupMounts(mountinfo string) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(mountinfo))
	for sc.Scan() {
		// 38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 || f[3] != "/" {
			continue // a bind mount of a sub-cgroup: not a hierarchy's root
		}
		switch g[0] {
		case "cgroup2":
			out[""] = f[4]
		case "cgroup":
			for _, opt := range strings.Split(g[2], ",") {
				if opt == "blkio" || opt == "memory" {
					out[opt] = f[4]
				}
			}
		}
	}
	return out
}

// cgroupPaths maps each controller of a /proc/PID/cgroup text ("" for the
// v2 line "0::/path") to the process's cgroup path in it.
func cgroupPaths(text string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}

// origin is the directory of pid's cgroup for ctrl ("" for v2), from
// /proc/PID/cgroup: where it goes back to when dbmeter's group is removed.
func (l Layout) origin(pid int, ctrl string) (string, error) {
	b, err := os.ReadFile(filepath.Join(l.Proc, fmt.Sprint(pid), "cgroup"))
	if err != nil {
		return "", fmt.Errorf("read the cgroups of process %d: %w", pid, err)
	}
	p, ok := cgroupPaths(string(b))[ctrl]
	m, ok2 := l.Mounts[ctrl]
	if !ok || !ok2 {
		return "", fmt.Errorf("process %d is in no %s cgroup", pid, ctrlName(ctrl))
	}
	return filepath.Join(m, p), nil
}

func ctrlName(ctrl string) string {
	if ctrl == "" {
		return "v2"
	}
	return ctrl
}
