package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// This file finds a local PostgreSQL cluster to run under a storage
// profile (docs/storage.md): its data directory and postmaster from /proc
// and postmaster.pid, the processes it forked, and its files dropped from
// the page cache. Its messages name the settings {StorageProfile} and
// {StorageServer}; the CLI spells them.

// Cluster is a local PostgreSQL cluster dbmeter may place in a cgroup:
// its data directory, postmaster and port, from postmaster.pid.
type Cluster struct {
	DataDir string
	PID     int
	Port    string
}

// FindCluster finds the cluster a storage profile applies to: the one
// named (a data directory or a postmaster PID), else the project's
// dev-services cluster the run connects to. It refuses, in one line, a
// server it cannot place: none named and no dev-services, or one that is
// not the server the run connects to (another port, another host).
func FindCluster(named, endpoint string) (Cluster, error) {
	dir := named
	if pid, err := strconv.Atoi(named); err == nil {
		d, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid)) // a postmaster runs in its data directory
		if err != nil {
			return Cluster{}, usage.Errorf("{StorageServer} %d: no such process to read its data directory from: %v", pid, errors.Unwrap(err))
		}
		dir = d
	}
	host, port, err := net.SplitHostPort(endpoint)
	if err != nil {
		i := strings.LastIndexByte(endpoint, ':')
		host, port = endpoint[:max(i, 0)], endpoint[i+1:]
	}
	if !localHost(host) {
		return Cluster{}, usage.Errorf("{StorageProfile}: the server %s is not on this machine: a remote server cannot be placed in a cgroup", endpoint)
	}
	if dir == "" {
		dir = devServicesPGData(port)
		if dir == "" {
			return Cluster{}, usage.Errorf("{StorageProfile}: the server %s is not the project's dev-services cluster: name the cluster to place in a cgroup with {StorageServer} DATADIR|POSTMASTER_PID", endpoint)
		}
	}
	c, err := readPostmasterPID(dir)
	if err != nil {
		return Cluster{}, usage.Errorf("{StorageServer}: %v", err)
	}
	if port != c.Port {
		return Cluster{}, usage.Errorf("{StorageProfile}: the run connects to %s, but the cluster in %s listens on port %s: name the cluster the run uses with {StorageServer}", endpoint, c.DataDir, c.Port)
	}
	return c, nil
}

// devServicesPGData is the data directory of the project's dev-services
// cluster listening on port, or "": a postmaster on this machine (a
// "postgres" process whose data directory's postmaster.pid names it) with
// that port, in a directory dev-services marked as its own.
func devServicesPGData(port string) string {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm")); strings.TrimSpace(string(comm)) != "postgres" {
			continue
		}
		dir, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil {
			continue
		}
		c, err := readPostmasterPID(dir)
		if err != nil || c.PID != pid || c.Port != port {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "..", "..", devServicesMarker)); err == nil {
			return dir
		}
	}
	return ""
}

// devServicesMarker is the file scripts/dev-services.sh leaves in the
// directory it made, beside pg/data.
const devServicesMarker = ".dbmeter-services"

// readPostmasterPID reads a running cluster's postmaster.pid: its PID
// (line 1) and port (line 4).
func readPostmasterPID(dir string) (Cluster, error) {
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return Cluster{}, fmt.Errorf("%s is not a running PostgreSQL cluster's data directory: %v", dir, errors.Unwrap(err))
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 4 {
		return Cluster{}, fmt.Errorf("%s/postmaster.pid is too short to name the postmaster and its port", dir)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || unix.Kill(pid, 0) != nil {
		return Cluster{}, fmt.Errorf("the postmaster of %s (postmaster.pid says %q) is not running", dir, strings.TrimSpace(lines[0]))
	}
	return Cluster{DataDir: dir, PID: pid, Port: strings.TrimSpace(lines[3])}, nil
}

func localHost(h string) bool {
	if h == "" || strings.HasPrefix(h, "/") || h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// ProcessTree is pid and every process descended from it, from /proc.
func ProcessTree(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so after the last ')'.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 {
			if pp, err := strconv.Atoi(f[1]); err == nil {
				children[pp] = append(children[pp], p)
			}
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// EvictPageCache drops the cluster's files from the page cache
// (posix_fadvise DONTNEED; dirty pages stay), so that under the memory
// limit its reads come from the device rather than from pages cached
// before it moved, which stay charged to its old cgroup. It reads nothing
// and changes no file.
func EvictPageCache(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return nil
		}
		defer f.Close()
		return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
	})
}
