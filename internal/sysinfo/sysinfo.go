// Package sysinfo captures the environment a run is measured in: CPU, memory,
// kernel, Go and module versions, the dbmeter build itself, the filesystem
// under test and what one durable write costs on it.
package sysinfo

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Options say what Capture looks at.
type Options struct {
	// DiskPath is the directory whose filesystem holds the data under test;
	// "" is the working directory.
	DiskPath string
	// NoDiskProbe skips the fsync probe, which writes a small file in
	// DiskPath and takes up to about a second.
	NoDiskProbe bool
}

// Capture describes this machine. Facts that cannot be read are left empty
// rather than failing the run; a probe that cannot run says why in
// Disk.Fsync.Error.
func Capture(o Options) result.Env {
	diskPath := o.DiskPath
	if diskPath == "" {
		diskPath, _ = os.Getwd()
	}
	env := result.Env{
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
	if !o.NoDiskProbe {
		env.Disk.Fsync = ProbeFsync(diskPath)
	}
	return env
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
