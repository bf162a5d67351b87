package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dbmeter/dbmeter/internal/result"
)

// kvSpreadFlag is the spread above which a kv cell is flagged: a figure
// that moved more than this between repetitions (or between the intervals
// of one) is not one to compare engines by.
const kvSpreadFlag = 0.25

// kvSpread says how far one cell's throughput moved: the largest distance
// of a repetition's ops/s from the repetitions' median, as a share of the
// median; for a single repetition, the same over its progress intervals.
// ok is false when there is nothing to compare (one repetition without
// intervals).
func kvSpread(reps []result.Run) (spread float64, ok bool) {
	var vals []float64
	if len(reps) > 1 {
		for _, r := range reps {
			vals = append(vals, r.OpsPerS)
		}
	} else if len(reps) == 1 {
		vals = intervalRates(reps[0])
	}
	if len(vals) < 2 {
		return 0, false
	}
	med := median(vals)
	if med <= 0 {
		return 0, false
	}
	for _, v := range vals {
		spread = math.Max(spread, math.Abs(v-med)/med)
	}
	return spread, true
}

// intervalRates are the ops/s of a run's whole intervals: the short tail
// of a run (operations that ended after the last tick, or the end of a
// count run) is left out, since its rate means little.
func intervalRates(r result.Run) []float64 {
	var secs []float64
	prev := 0.0
	for _, iv := range r.Intervals {
		secs = append(secs, iv.TS-prev)
		prev = iv.TS
	}
	full := median(secs)
	var out []float64
	for i, iv := range r.Intervals {
		if secs[i] >= full/2 && secs[i] > 0 {
			out = append(out, float64(iv.Ops)/secs[i])
		}
	}
	return out
}

// kvThroughputCell is a kv table's throughput cell: the median, its spread
// and, past kvSpreadFlag, a "*".
func kvThroughputCell(median float64, reps []result.Run) (string, bool) {
	s := Count(median)
	spread, ok := kvSpread(reps)
	if !ok {
		return s, false
	}
	s += " ±" + strconv.Itoa(int(math.Round(spread*100))) + "%"
	if spread > kvSpreadFlag {
		return s + "*", true
	}
	return s, false
}

// kvSpreadNote explains the ± of a kv throughput table and, when a cell was
// flagged, what to do about it: one line.
func kvSpreadNote(repeat int, flagged bool) string {
	over := fmt.Sprintf("its %d repetitions", repeat)
	if repeat <= 1 {
		over = "its progress intervals"
	}
	s := fmt.Sprintf("±: the largest distance of %s from their median (throughput)", over)
	if flagged {
		s += fmt.Sprintf("; * above %.0f%%: not a stable figure, rerun with a longer --duration, more --repeat, or on a quieter machine", kvSpreadFlag*100)
	}
	return s
}
