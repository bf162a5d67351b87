package load

import (
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dbmeter/dbmeter/internal/sysinfo"
)

// costSample is the process's cumulative CPU time and allocations at one
// moment; the difference of two samples is what the window cost.
type costSample struct {
	cpu time.Duration
	// children is the CPU of the processes dbmeter started: the external
	// workers of a client in another language, whose CPU is the
	// client's as much as dbmeter's own is.
	children   time.Duration
	allocs     uint64
	allocBytes uint64
	// written is the bytes the process caused to be written to storage
	// (write_bytes of /proc/self/io: counted when a page is dirtied or a
	// direct write submitted, whoever writes it back); 0 where unknown.
	written int64
}

var costMetrics = []string{"/gc/heap/allocs:objects", "/gc/heap/allocs:bytes"}

// ProcessCPU is the CPU time (user and system) the process has used.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ProcessWrittenBytes is write_bytes of /proc/self/io: the bytes the
// process has caused to be written to storage, all its threads together;
// 0 where the kernel does not say (no /proc, or task IO accounting off).
func ProcessWrittenBytes() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "write_bytes: "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

func sampleCost() costSample {
	s := costSample{cpu: ProcessCPU(), children: sysinfo.ChildrenCPU(), written: ProcessWrittenBytes()}
	samples := make([]metrics.Sample, len(costMetrics))
	for i, name := range costMetrics {
		samples[i].Name = name
	}
	metrics.Read(samples)
	if samples[0].Value.Kind() == metrics.KindUint64 {
		s.allocs = samples[0].Value.Uint64()
	}
	if samples[1].Value.Kind() == metrics.KindUint64 {
		s.allocBytes = samples[1].Value.Uint64()
	}
	return s
}
