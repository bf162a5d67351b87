package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// The harness shape's cznic/kv, whose writes were not synced with fsync on
// (as in seed 004's harness) and say so (writes_synced 0), is told as the
// declared unsynced column above the fsync-on table, never warned of as
// physically implausible; an engine that recorded synced writes and beat
// the disk still is.
func TestKVUnsyncedColumnNotImplausible(t *testing.T) {
	t.Parallel()
	harness := func(engine string, synced float64, sw string) result.Run {
		r := kvRun(engine, "set", "true", 900000, 300)
		r.Workers, r.Ops = 40, 10000
		r.Params["fsync_switch"] = sw
		r.Extra = map[string]float64{"writes_synced": synced}
		return r
	}
	cznic := harness("cznic/kv", 0, "no per-write switch; fsync asked for, not applied: the harness's cznic/kv store never read its fsync flag")
	fast := harness("pebble", 1, "pebble.Sync write option (WAL fsync)")
	for _, c := range []struct {
		name                  string
		run                   result.Run
		unsynced, implausible bool
	}{
		{"declared unsynced", cznic, true, false},
		{"synced and faster than the disk", fast, false, true},
		{"fsync off", func() result.Run { r := cznic; r.Params = map[string]string{"fsync": "false"}; return r }(), false, false},
		{"cells shape, nothing recorded", func() result.Run { r := fast; r.Extra = nil; return r }(), false, true},
	} {
		u, w := kvUnsynced(c.run), kvImplausible(c.run, ssdProbe)
		if (u != "") != c.unsynced || (w != "") != c.implausible {
			t.Errorf("%s: unsynced %q, implausible %q; want %v and %v", c.name, u, w, c.unsynced, c.implausible)
		}
	}

	get := cznic
	get.Workload = "get"
	var buf bytes.Buffer
	disk := result.Disk{Path: "/data/kv", FS: "ext4", Fsync: ssdProbe}
	if err := kvTables(disk)(&buf, []result.Run{cznic, get, fast}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	on, latency := strings.Index(out, "kv fsync on: throughput"), strings.Index(out, "kv fsync on: latency")
	line := strings.Index(out, "cznic/kv: writes not synced with fsync on (writes_synced 0")
	if on < 0 || line < on || line > latency || strings.Count(out, "writes not synced") != 1 {
		t.Errorf("want one line for cznic/kv's unsynced writes under the fsync-on header:\n%s", out)
	}
	if strings.Contains(out, "WARNING: cznic/kv") || !strings.Contains(out, "WARNING: pebble set") {
		t.Errorf("the unsynced column must not be warned of, pebble's synced writes faster than the disk must:\n%s", out)
	}
}
