package sysinfo

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ChildrenCPU is the CPU time (user and system) used so far by every
// process this one started and their own children: those it has reaped
// (getrusage RUSAGE_CHILDREN) and those still running (/proc, in
// hundredths of a second). The difference of two readings is what the
// external workers spent between them. It reads nothing more than the
// rusage when no child runs, so it costs a window of a process without
// workers almost nothing.
func ChildrenCPU() time.Duration {
	var ru syscall.Rusage
	var d time.Duration
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) == nil {
		d = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	var ticks uint64
	queue := childrenOf("self")
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if p, ok := readProc(pid); ok {
			ticks += p.ticks + p.reaped
			queue = append(queue, childrenOf(pid)...)
		}
	}
	return d + time.Duration(ticks)*time.Second/userHZ
}

// childrenOf lists pid's children from every thread's children file.
func childrenOf(pid string) []string {
	files, _ := filepath.Glob("/proc/" + pid + "/task/*/children")
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, c := range strings.Fields(string(b)) {
			if _, err := strconv.Atoi(c); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}
