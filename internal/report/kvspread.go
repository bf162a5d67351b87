package report

import (
	"fmt"
	"math"
	"strconv"

	"golang.org/x/perf/benchmath"

	"github.com/dbmeter/dbmeter/internal/result"
)

// kvSpreadFlag is the spread above which a kv cell is flagged: a figure
// whose 95 % confidence interval reaches further than this from it is not
// one to compare engines by.
const kvSpreadFlag = 0.25

// kvConfidence is the confidence of the interval a kv cell's ± gives.
const kvConfidence = 0.95

// kvSpread says how sure one cell's throughput is: the half-width of the
// 95 % confidence interval of the mean of its repetitions' ops/s (Student's
// t, benchstat's AssumeNormal), as a share of the cell's figure (the
// repetitions pooled, see pooledRun: the same mean when they ran equally
// long). The spread of the repetitions themselves would grow with their
// number while the figure they pool grows surer. For a single repetition,
// the same over its progress intervals, which share one moment of the
// machine and so understate it. ok is false when there is nothing to
// compare (one repetition without intervals).
func kvSpread(figure float64, reps []result.Run) (spread float64, ok bool) {
	var vals []float64
	if len(reps) > 1 {
		for _, r := range reps {
			vals = append(vals, r.OpsPerS)
		}
	} else if len(reps) == 1 {
		vals = intervalRates(reps[0])
	}
	if len(vals) < 2 || figure <= 0 {
		return 0, false
	}
	s := benchmath.AssumeNormal.Summary(benchmath.NewSample(vals, &benchmath.DefaultThresholds), kvConfidence)
	return (s.Hi - s.Lo) / 2 / figure, true
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

// kvThroughputCell is a kv table's throughput cell: the figure, its spread
// and, past kvSpreadFlag, a "*".
func kvThroughputCell(figure float64, reps []result.Run) (string, bool) {
	s := Count(figure)
	spread, ok := kvSpread(figure, reps)
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
		over = "its progress intervals (one moment of the machine: more --repeat gives a truer one)"
	}
	s := fmt.Sprintf("±: the %.0f%% confidence interval of the throughput, from %s", kvConfidence*100, over)
	if flagged {
		s += fmt.Sprintf("; * above %.0f%%: not a stable figure, rerun with more --repeat, or on a quieter machine", kvSpreadFlag*100)
	}
	return s
}
