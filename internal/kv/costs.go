package kv

import (
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// What a cell cost the storage and memory, beside its speed: the figures
// the engines' builders judge an engine by (docs/kv.md, "What the storage
// costs").

// userWritten is the logical bytes a run's acknowledged writes carried:
// keys and values for set, update, setmixed and batchset, keys for del;
// 0 for a run that does not write.
func userWritten(r result.Run, spec workload.Spec) int64 {
	entry := int64(spec.KeySize + spec.ValueSize)
	switch r.Workload {
	case "set", "update", "setmixed":
		return r.Ops * entry
	case "batchset":
		return r.Rows * entry
	case "del":
		return r.Ops * int64(spec.KeySize)
	}
	return 0
}

// recordWrites adds the write amplification of a writing run: what the
// process caused to be written to storage in the window, per logical
// byte written.
func recordWrites(runs []result.Run, res *load.Result, spec workload.Spec) {
	x := FigureDeclarations()
	for i := range runs {
		user := userWritten(runs[i], spec)
		if user <= 0 {
			continue
		}
		written := res.WrittenBytes()
		x.Set(&runs[i], "user_write_bytes", float64(user))
		x.Set(&runs[i], "io_write_bytes", float64(written))
		x.Set(&runs[i], "write_amp", float64(written)/float64(user))
		if runs[i].Workload != "del" { // del's rounds leave gaps between its intervals
			recordStalls(&runs[i])
		}
	}
}

// stallShare is how far below the median interval's throughput an
// interval must fall to count as a stall.
const stallShare = 0.1

// recordStalls marks the intervals of a writing run whose throughput fell
// below a tenth of the run's median interval (a compaction or a flush
// that held the writers), and the slowest interval's share of the median.
// The last interval is left out: it may be cut short by the window's end.
func recordStalls(r *result.Run) {
	if len(r.Intervals) < 4 {
		return
	}
	ivs := r.Intervals[:len(r.Intervals)-1]
	ops := make([]int64, len(ivs))
	for i, iv := range ivs {
		ops[i] = iv.Ops
	}
	slices.Sort(ops)
	median := float64(ops[len(ops)/2])
	if median <= 0 {
		return
	}
	stalls := 0
	for _, n := range ops {
		if float64(n) < stallShare*median {
			stalls++
		}
	}
	x := FigureDeclarations()
	x.Set(r, "stall_intervals", float64(stalls))
	x.Set(r, "slowest_interval_share", float64(ops[0])/median)
}

// recordSpace adds the space amplification at the cell's end: bytes on
// disk per logical byte held.
func recordSpace(runs []result.Run, end storeState, spec workload.Spec) {
	logical := float64(end.keys) * float64(spec.KeySize+spec.ValueSize)
	if logical <= 0 || end.bytes <= 0 {
		return
	}
	for i := range runs {
		FigureDeclarations().Set(&runs[i], "space_amp", float64(end.bytes)/logical)
	}
}

// resetPeakRSS starts the process's peak resident set over (Linux's
// clear_refs 5), so that the next peakRSS is the cell's; false where the
// kernel does not allow it.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS is the process's peak resident set (VmHWM) in bytes; 0 where
// unknown.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// recordRSS adds the process's peak resident set over the cell (the engine
// and dbmeter in one process: dbmeter's share is its histograms, a few MiB).
func recordRSS(runs []result.Run, reset bool) {
	if !reset {
		return
	}
	if rss := peakRSS(); rss > 0 {
		for i := range runs {
			FigureDeclarations().Set(&runs[i], "peak_rss_bytes", float64(rss))
		}
	}
}
