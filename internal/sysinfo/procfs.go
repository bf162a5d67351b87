package sysinfo

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// userHZ is the unit of /proc's CPU times: USER_HZ, which Linux fixes at
// 100 for user space on every architecture it exports it to.
const userHZ = 100

// cpuTimes is /proc/stat's aggregate "cpu" line, in ticks.
type cpuTimes struct {
	busy  uint64 // user+nice+system+irq+softirq (guest is inside user)
	steal uint64
	total uint64 // everything, idle and steal included
}

func readCPUTimes() (cpuTimes, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuTimes{}, false
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 9 || f[0] != "cpu" {
		return cpuTimes{}, false
	}
	var v [10]uint64
	for i := 1; i < len(f) && i <= len(v); i++ {
		v[i-1], _ = strconv.ParseUint(f[i], 10, 64)
	}
	// user nice system idle iowait irq softirq steal guest guest_nice
	t := cpuTimes{busy: v[0] + v[1] + v[2] + v[5] + v[6], steal: v[7]}
	for _, x := range v[:8] {
		t.total += x
	}
	return t, true
}

func readLoadAvg() result.LoadAvg {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return result.LoadAvg{}
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return result.LoadAvg{}
	}
	var l result.LoadAvg
	l.Load1, _ = strconv.ParseFloat(f[0], 64)
	l.Load5, _ = strconv.ParseFloat(f[1], 64)
	l.Load15, _ = strconv.ParseFloat(f[2], 64)
	return l
}

// proc is one process's line of /proc/<pid>/stat.
type proc struct {
	ppid int
	comm string
	// ticks is its own user+system time; reaped its children's
	// (cutime+cstime), which the kernel adds when it waits for them.
	ticks, reaped uint64
}

// readProc reads /proc/<pid>/stat; false when the process is gone.
func readProc(pid string) (proc, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return proc{}, false
	}
	// comm is in parentheses and may hold spaces and parentheses itself:
	// the fields resume after the last ')'.
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return proc{}, false
	}
	f := strings.Fields(string(b[end+1:]))
	// f[0] is field 3 (state): ppid is field 4, utime..cstime 14..17.
	if len(f) < 15 {
		return proc{}, false
	}
	num := func(i int) uint64 { n, _ := strconv.ParseUint(f[i], 10, 64); return n }
	ppid, _ := strconv.Atoi(f[1])
	return proc{ppid: ppid, comm: string(b[open+1 : end]), ticks: num(11) + num(12), reaped: num(13) + num(14)}, true
}

// readProcs reads every process's stat.
func readProcs() map[int]proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make(map[int]proc, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(e.Name()); ok {
			out[pid] = p
		}
	}
	return out
}

// tree is the set of roots and their descendants among procs.
func tree(procs map[int]proc, roots ...int) map[int]bool {
	in := map[int]bool{}
	for _, r := range roots {
		if _, ok := procs[r]; ok {
			in[r] = true
		}
	}
	children := map[int][]int{}
	for pid, p := range procs {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	queue := make([]int, 0, len(in))
	for pid := range in {
		queue = append(queue, pid)
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if !in[c] {
				in[c] = true
				queue = append(queue, c)
			}
		}
	}
	return in
}
