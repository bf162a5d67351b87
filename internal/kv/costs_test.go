package kv

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/result"
)

func TestUserWritten(t *testing.T) {
	spec := workload.Spec{KeySize: 9, ValueSize: 256}
	for _, tc := range []struct {
		r    result.Run
		want int64
	}{
		{result.Run{Workload: "set", Stats: result.Stats{Ops: 10}}, 2650},
		{result.Run{Workload: "update", Stats: result.Stats{Ops: 1}}, 265},
		{result.Run{Workload: "setmixed", Stats: result.Stats{Ops: 2}}, 530},
		{result.Run{Workload: "batchset", Stats: result.Stats{Ops: 1, Rows: 100}}, 26500},
		{result.Run{Workload: "del", Stats: result.Stats{Ops: 10}}, 90},
		{result.Run{Workload: "get", Stats: result.Stats{Ops: 10}}, 0},
		{result.Run{Workload: "getmixed", Stats: result.Stats{Ops: 10}}, 0},
	} {
		if got := userWritten(tc.r, spec); got != tc.want {
			t.Errorf("%s of %d ops, %d rows: %d bytes, want %d", tc.r.Workload, tc.r.Ops, tc.r.Rows, got, tc.want)
		}
	}
}

func TestRecordStalls(t *testing.T) {
	ivs := func(ops ...int64) []result.Interval {
		var out []result.Interval
		for _, n := range ops {
			out = append(out, result.Interval{Ops: n})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		ops     []int64
		stalls  float64
		slowest float64
		none    bool // too few intervals to say
	}{
		{name: "steady", ops: []int64{100, 110, 90, 100, 5}, stalls: 0, slowest: 0.9}, // the last, cut short, is left out
		{name: "one stall", ops: []int64{100, 100, 5, 100, 100, 100}, stalls: 1, slowest: 0.05},
		{name: "at a tenth is no stall", ops: []int64{100, 10, 100, 100, 100}, stalls: 0, slowest: 0.1},
		{name: "too short", ops: []int64{100, 0, 100}, none: true},
	} {
		r := result.Run{Stats: result.Stats{Intervals: ivs(tc.ops...)}}
		recordStalls(&r)
		if tc.none {
			if _, ok := r.Extra["stall_intervals"]; ok {
				t.Errorf("%s: stalls recorded from %d intervals", tc.name, len(tc.ops))
			}
			continue
		}
		if r.Extra["stall_intervals"] != tc.stalls || r.Extra["slowest_interval_share"] != tc.slowest {
			t.Errorf("%s: stalls %v, slowest %v; want %v, %v", tc.name, r.Extra["stall_intervals"], r.Extra["slowest_interval_share"], tc.stalls, tc.slowest)
		}
	}
}

// The peak resident set starts over at a cell: memory a cell before it
// touched and gave back does not count in it.
func TestPeakRSSResets(t *testing.T) {
	if !resetPeakRSS() {
		t.Skip("the kernel does not let the peak RSS be reset")
	}
	b := make([]byte, 128<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	high := peakRSS()
	b = nil
	runtime.KeepAlive(b)
	debug.FreeOSMemory()
	if !resetPeakRSS() {
		t.Fatal("the second reset failed")
	}
	if after := peakRSS(); after > high-64<<20 {
		t.Errorf("peak RSS %d after the reset, %d before it with 128 MiB touched and given back", after, high)
	}
}
