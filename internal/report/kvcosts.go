package report

import (
	"fmt"

	"github.com/dbmeter/dbmeter/internal/result"
)

// kvCostGrids are what each kv cell cost the storage and memory, where the
// runs recorded it: write amplification (bytes the process caused to be
// written to storage per logical byte written), space amplification
// (bytes on disk per logical byte held at the cell's end), peak RSS, and
// the stalls of writing cells; under a storage profile, the device IOs the
// cgroup counted per second. Repetitions pool by each figure's meaning:
// amplification from the summed bytes, RSS and space at their highest,
// stalls summed.
func kvCostGrids(l labeler, es []entry, header, rows, cols []string) []Grid {
	type pool func(reps []result.Run) (string, bool)
	ratio := func(num, den string) pool {
		return func(reps []result.Run) (string, bool) {
			var n, d float64
			ok := false
			for _, r := range reps {
				if v, has := r.Extra[num]; has {
					n, d, ok = n+v, d+r.Extra[den], true
				}
			}
			if !ok || d <= 0 {
				return "", false
			}
			return fmt.Sprintf("%.2f", n/d), true
		}
	}
	highest := func(name string, format func(float64) string) pool {
		return func(reps []result.Run) (string, bool) {
			v, ok := 0.0, false
			for _, r := range reps {
				if x, has := r.Extra[name]; has {
					v, ok = max(v, x), true
				}
			}
			return format(v), ok
		}
	}
	stalls := func(reps []result.Run) (string, bool) {
		var n float64
		ok := false
		for _, r := range reps {
			if x, has := r.Extra["stall_intervals"]; has {
				n, ok = n+x, true
			}
		}
		return Count(n), ok
	}
	perSecond := func(name string) pool {
		return func(reps []result.Run) (string, bool) {
			var n, s float64
			ok := false
			for _, r := range reps {
				if x, has := r.Extra[name]; has {
					n, s, ok = n+x, s+r.DurationS, true
				}
			}
			if !ok || s <= 0 {
				return "", false
			}
			return Count(n / s), true
		}
	}
	grids := []struct {
		title, note string
		f           pool
	}{
		{"kv write amplification", "bytes the process caused to be written to storage (/proc/self/io write_bytes) per logical byte written, in the measured window", ratio("io_write_bytes", "user_write_bytes")},
		{"kv space amplification", "bytes on disk per logical byte held, at the cell's end", highest("space_amp", func(v float64) string { return fmt.Sprintf("%.2f", v) })},
		{"kv peak RSS", "the process's peak resident set over the cell (engine and dbmeter)", highest("peak_rss_bytes", Bytes)},
		{"kv stalls", "intervals of a writing cell below a tenth of its median interval", stalls},
		{"kv device write IOs/s", "write IOs the storage profile's cgroup counted, per second of the window", perSecond("device_write_ios")},
		{"kv device read IOs/s", "read IOs the storage profile's cgroup counted, per second of the window", perSecond("device_read_ios")},
	}
	var out []Grid
	for _, g := range grids {
		var lines [][]string
		any := false
		for _, w := range rows {
			line := []string{w}
			for _, c := range cols {
				var reps []result.Run
				for _, e := range es {
					if e.run.Workload == w && l.target(e) == c {
						reps = append(reps, *e.run)
					}
				}
				s, ok := g.f(reps)
				if !ok {
					s = "-"
				}
				any = any || ok
				line = append(line, s)
			}
			lines = append(lines, line)
		}
		if any {
			out = append(out, Grid{Title: g.title, Header: header, Rows: lines, Note: g.note, Labels: 1})
		}
	}
	return out
}
