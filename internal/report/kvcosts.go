package report

import (
	"fmt"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A kvCost is one row of the storage-costs table for each operation,
// pooled over a cell's repetitions by the figure's meaning.
type kvCost struct {
	name string
	pool func(reps []result.Run) (string, bool)
}

// kvCosts are what each kv cell cost the storage and memory, where the
// runs recorded it: write amplification (bytes the process caused to be
// written to storage per logical byte written: summed bytes over summed
// bytes), space amplification (bytes on disk per logical byte held at the
// cell's end) and peak RSS at their highest, stalls summed; under a
// storage profile, the device IOs its cgroup counted per second.
var kvCosts = []kvCost{
	{"write amp", kvRatio("io_write_bytes", "user_write_bytes")},
	{"space amp", kvHighest("space_amp", func(v float64) string { return fmt.Sprintf("%.2f", v) })},
	{"peak RSS", kvHighest("peak_rss_bytes", Bytes)},
	{"stalls", kvSum("stall_intervals")},
	{"device write IOs/s", kvPerSecond("device_write_ios")}, // over the span the counters were read across, warm-up included
	{"device read IOs/s", kvPerSecond("device_read_ios")},
}

// costs is the mode's storage-costs grid; ok is false when no run
// recorded any of them (a document from an older dbmeter).
func (m kvMatrix) costs(mode string) (Grid, bool) {
	g := Grid{
		Title:  "kv " + kvModeName(mode) + ": what the storage costs",
		Header: append([]string{"cost"}, m.engines...),
		Labels: 1,
		Note: "write amp: bytes the process caused to be written to storage (/proc/self/io write_bytes) per logical byte written, in the window; " +
			"space amp: bytes on disk per logical byte held at the cell's end; peak RSS: the process (engine and dbmeter) over the cell; " +
			"stalls: intervals of a writing cell below a tenth of its median; device IOs/s: what the storage profile's cgroup counted (docs/storage.md)",
	}
	for _, op := range m.ops {
		for _, c := range kvCosts {
			has := false
			row := m.row(op+" "+c.name, op, func(_ result.Run, reps []result.Run) string {
				s, ok := c.pool(reps)
				if !ok {
					return "-"
				}
				has = true
				return s
			})
			if has {
				g.Rows = append(g.Rows, row)
			}
		}
	}
	return g, len(g.Rows) > 0
}

func kvRatio(num, den string) func([]result.Run) (string, bool) {
	return func(reps []result.Run) (string, bool) {
		var n, d float64
		for _, r := range reps {
			if v, ok := r.Extra[num]; ok {
				n, d = n+v, d+r.Extra[den]
			}
		}
		if d <= 0 {
			return "", false
		}
		return fmt.Sprintf("%.2f", n/d), true
	}
}

func kvHighest(name string, format func(float64) string) func([]result.Run) (string, bool) {
	return func(reps []result.Run) (string, bool) {
		v, found := 0.0, false
		for _, r := range reps {
			if x, ok := r.Extra[name]; ok {
				v, found = max(v, x), true
			}
		}
		return format(v), found
	}
}

func kvSum(name string) func([]result.Run) (string, bool) {
	return func(reps []result.Run) (string, bool) {
		n, found := 0.0, false
		for _, r := range reps {
			if x, ok := r.Extra[name]; ok {
				n, found = n+x, true
			}
		}
		return Count(n), found
	}
}

func kvPerSecond(name string) func([]result.Run) (string, bool) {
	return func(reps []result.Run) (string, bool) {
		var n, s float64
		for _, r := range reps {
			if x, ok := r.Extra[name]; ok {
				span, ok := r.Extra["device_seconds"]
				if !ok {
					span = r.DurationS
				}
				n, s = n+x, s+span
			}
		}
		if s <= 0 {
			return "", false
		}
		return Count(n / s), true
	}
}
