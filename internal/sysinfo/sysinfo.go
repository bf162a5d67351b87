// Package sysinfo captures the environment a run is measured in: CPU, memory,
// kernel, Go and module versions, and the filesystem under test.
package sysinfo

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Capture describes this machine. diskPath is the directory whose filesystem
// holds the data under test ("" means the working directory). Facts that
// cannot be read are left empty rather than failing the run.
func Capture(diskPath string) result.Env {
	if diskPath == "" {
		diskPath, _ = os.Getwd()
	}
	return result.Env{
		CPUModel:   cpuModel(),
		CPUs:       runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		MemBytes:   memTotal(),
		OS:         runtime.GOOS,
		Kernel:     kernel(),
		Go:         runtime.Version(),
		Modules:    Modules(),
		Disk:       Disk(diskPath),
	}
}

// Version is the dbmeter build's version: the module version when installed
// with go install, else the VCS revision, else "devel".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel-" + rev
}

// Modules lists the versions of the modules linked into dbmeter: the client
// libraries and engines whose numbers the run reports.
func Modules() map[string]string {
	mods := map[string]string{}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return mods
	}
	for _, d := range bi.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		mods[d.Path] = d.Version
	}
	return mods
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

func kernel() string {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
}

// fsNames maps statfs magic numbers to the names mount(8) uses.
var fsNames = map[int64]string{
	unix.EXT4_SUPER_MAGIC:      "ext4",
	unix.XFS_SUPER_MAGIC:       "xfs",
	unix.BTRFS_SUPER_MAGIC:     "btrfs",
	unix.TMPFS_MAGIC:           "tmpfs",
	unix.OVERLAYFS_SUPER_MAGIC: "overlay",
	unix.NFS_SUPER_MAGIC:       "nfs",
	unix.F2FS_SUPER_MAGIC:      "f2fs",
}

// Disk describes the filesystem holding path and whether its block device
// is rotational. Unknown facts stay empty.
func Disk(path string) result.Disk {
	d := result.Disk{Path: path}
	if abs, err := filepath.Abs(path); err == nil {
		d.Path = abs
	}
	var sfs unix.Statfs_t
	if err := unix.Statfs(path, &sfs); err == nil {
		if name, ok := fsNames[int64(sfs.Type)]; ok {
			d.FS = name
		} else {
			d.FS = fmt.Sprintf("0x%x", sfs.Type)
		}
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err == nil {
		d.Rotational = rotational(unix.Major(st.Dev), unix.Minor(st.Dev))
	}
	return d
}

func rotational(major, minor uint32) bool {
	dev := fmt.Sprintf("/sys/dev/block/%d:%d", major, minor)
	for _, p := range []string{dev + "/queue/rotational", dev + "/../queue/rotational"} {
		if b, err := os.ReadFile(p); err == nil {
			return strings.TrimSpace(string(b)) == "1"
		}
	}
	return false
}
