package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
)

// probe is a fast SSD: 100 µs at best, 150 µs typical.
var ssdProbe = &result.FsyncProbe{Method: "write 8192 B at offset 0 + fdatasync", WriteBytes: 8192, Ops: 200,
	P50Ns: 150_000, P99Ns: 2_000_000, MinNs: 100_000, MaxNs: 3_000_000, OpsPerS: 4000}

func TestKVImplausible(t *testing.T) {
	t.Parallel()
	durable := func(op string, workers int, p50 int64) result.Run {
		r := kvRun("pebble", op, "true", 1e9/float64(p50)*float64(workers), p50)
		r.Workers, r.Ops = workers, 1000
		r.Params["fsync_switch"] = "pebble.Sync write option (WAL fsync)"
		return r
	}
	memory := durable("set", 2, 300)
	memory.Params["fsync_switch"] = "none (memory engine)"
	off := durable("set", 2, 300)
	off.Params["fsync"] = "false"
	empty := durable("del", 2, 5_000)
	empty.Ops, empty.OpsPerS, empty.Latency = 0, 0, result.Latency{}
	unrecorded := durable("del", 2, 5_000) // an older document's empty histogram beside a count
	unrecorded.Latency = result.Latency{}
	for _, c := range []struct {
		name  string
		run   result.Run
		probe *result.FsyncProbe
		want  string // a substring of the warning; "" for none
	}{
		{"a set faster than any flush", durable("set", 2, 300), ssdProbe, "pebble set with fsync on: p50 300ns per write"},
		{"its ceiling counts every worker", durable("set", 4, 300), ssdProbe, "4 workers sharing every fsync could reach at most 40,000/s"},
		{"the mixed writer is one", durable("setmixed", 1, 300), ssdProbe, "one writer could reach at most 10,000/s"},
		{"a batch per flush", durable("batchset", 2, 5_000), ssdProbe, "per batch"},
		{"a delete is a write", durable("del", 2, 5_000), ssdProbe, "per delete"},
		{"a write as slow as the typical flush", durable("set", 2, 180_000), ssdProbe, ""},
		{"group commit: a write just over half the fastest flush", durable("set", 2, 50_001), ssdProbe, ""},
		{"just under half the fastest flush", durable("set", 2, 49_999), ssdProbe, "p50 50.0µs per write"},
		{"reads need no flush", durable("get", 2, 300), ssdProbe, ""},
		{"readers of the mixed run", durable("getmixed", 1, 300), ssdProbe, ""},
		{"a memory engine claims nothing", memory, ssdProbe, ""},
		{"fsync off", off, ssdProbe, ""},
		{"no probe", durable("set", 2, 300), nil, ""},
		{"a failed probe", durable("set", 2, 300), &result.FsyncProbe{Error: "read-only file system"}, ""},
		{"a cell that completed nothing", empty, ssdProbe, ""},
		{"a count without a latency", unrecorded, ssdProbe, ""},
	} {
		got := kvImplausible(c.run, c.probe)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// Every fsync-on table pair says what one fsync costs on the disk and
// warns under its throughput table; fsync-off tables say neither.
func TestKVTablesShowTheDisk(t *testing.T) {
	t.Parallel()
	fast := kvRun("nosync", "set", "true", 900000, 300)
	fast.Workers, fast.Ops = 2, 1000
	fast.Params["fsync_switch"] = "fsync after each write"
	runs := []result.Run{kvRun("map", "set", "false", 300000, 1700), fast}
	disk := result.Disk{Path: "/data/kv", FS: "ext4", Device: "nvme0n1", Model: "Samsung SSD 980", Driver: "nvme", Fsync: ssdProbe}
	var buf bytes.Buffer
	if err := kvTables(disk)(&buf, runs); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	on := strings.Index(out, "kv fsync on: throughput")
	if on < 0 {
		t.Fatalf("no fsync-on table:\n%s", out)
	}
	for _, s := range []string{"disk  /data/kv", "WARNING:"} {
		if i := strings.Index(out, s); i < on {
			t.Errorf("%q is not under the fsync-on header (at %d, header at %d):\n%s", s, i, on, out)
		}
	}
	want := "disk  /data/kv: ext4 on nvme0n1, Samsung SSD 980, nvme, kernel flag non-rotational  ·  one fsync (8,192 B write + fdatasync, 200 probes): p50 150µs  p99 2.00ms  min 100µs  mean 250µs (4,000/s)"
	if !strings.Contains(out, want+"\n") {
		t.Errorf("disk line: want %q in:\n%s", want, out)
	}
	if w, l := strings.Index(out, "WARNING: nosync set"), strings.LastIndex(out, "kv fsync on: latency"); w < 0 || w > l {
		t.Errorf("the warning must sit under the fsync-on throughput table, before its latency table:\n%s", out)
	}

	buf.Reset()
	disk.Fsync = nil
	if err := kvTables(disk)(&buf, runs); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "no fsync probe in this result (the run skipped the disk probe)") || strings.Contains(out, "WARNING") {
		t.Errorf("without a probe the table must say so and warn of nothing:\n%s", out)
	}
}

// A report header names the kernel's rotational flag as the guess it is
// and, when the disk was probed, what one fsync costs.
func TestDiskSummary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		disk result.Disk
		want string
	}{
		{result.Disk{FS: "ext4", Rotational: true}, "ext4 (kernel flag rotational)"},
		{result.Disk{FS: "xfs", Fsync: ssdProbe}, "xfs (kernel flag non-rotational), one fsync p50 150µs, mean 250µs (4,000/s)"},
		{result.Disk{}, ""},
	}
	for _, tt := range tests {
		if got := DiskSummary(tt.disk); got != tt.want {
			t.Errorf("DiskSummary(%+v) = %q, want %q", tt.disk, got, tt.want)
		}
	}
}

// A kv fsync-on cell that completed no write, in some repetitions or in
// all, raises no fsync warning: its empty histograms are no latency (the
// table says "no operation completed" for a cell with none), while a cell
// whose writes really were faster than the disk still warns. cznic/kv's
// group commit takes about a second, longer than a short cell.
func TestKVFsyncWarningSkipsEmptyCells(t *testing.T) {
	t.Parallel()
	const second = int64(1_010_000_000)
	rep := func(n int, ops int64, p50 int64) result.Run {
		r := kvRun("cznic/kv", "del", "true", float64(ops)*2, p50)
		r.Repeat, r.Workers, r.Ops = n, 2, ops
		r.Params["fsync_switch"] = "Options.Wal (group commit)"
		if ops > 0 {
			h := hist.New()
			for range ops {
				h.RecordValue(p50)
			}
			r.LatencyHDR, _ = result.EncodeHDR(h)
		} else {
			r.Latency = result.Latency{} // an empty histogram: zeros
		}
		return r
	}
	for _, c := range []struct {
		name    string
		reps    []result.Run
		warning bool
		noOps   bool // the cell says "no operation completed"
	}{
		{"no repetition completed a delete", []result.Run{rep(1, 0, 0), rep(2, 0, 0), rep(3, 0, 0)}, false, true},
		{"one repetition of three completed two", []result.Run{rep(1, 0, 0), rep(2, 0, 0), rep(3, 2, second)}, false, false},
		{"every repetition completed some", []result.Run{rep(1, 1, second), rep(2, 2, second)}, false, false},
		{"writes faster than the disk still warn", []result.Run{rep(1, 0, 0), rep(2, 500, 300), rep(3, 500, 300)}, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			disk := result.Disk{Path: "/data/kv", Fsync: ssdProbe}
			var buf bytes.Buffer
			if err := kvTables(disk)(&buf, c.reps); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if got := strings.Contains(out, "WARNING: cznic/kv del with fsync on"); got != c.warning {
				t.Errorf("fsync warning %v, want %v:\n%s", got, c.warning, out)
			}
			if got := strings.Contains(out, "no operation completed"); got != c.noOps {
				t.Errorf("\"no operation completed\" shown %v, want %v:\n%s", got, c.noOps, out)
			}
		})
	}
}
