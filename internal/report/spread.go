package report

import (
	"fmt"
	"math"
	"strconv"

	"golang.org/x/perf/benchmath"

	"github.com/dbmeter/dbmeter/internal/result"
)

// spreadFlag is the spread above which a throughput is flagged: a figure
// whose 95 % confidence interval reaches further than this from it is not
// one to compare variants (engines, drivers, clients, settings) by.
const spreadFlag = 0.25

// confidence is the confidence of the interval a throughput's ± gives.
const confidence = 0.95

// relSpread says how sure a variant's throughput is: the half-width of the
// 95 % confidence interval of the mean of its repetitions' ops/s (Student's
// t, benchstat's AssumeNormal), as a share of the variant's figure (the
// repetitions pooled, see pooledRun: the same mean when they ran equally
// long). The spread of the repetitions themselves would grow with their
// number while the figure they pool grows surer. For a single repetition,
// the same over its progress intervals, which share one moment of the
// machine and so understate it. ok is false when there is nothing to
// compare (one repetition without intervals). The share holds for any
// throughput of the variant (rows/s, MB/s) that is a fixed multiple of its
// operations.
func relSpread(figure float64, reps []result.Run) (spread float64, ok bool) {
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
	s := benchmath.AssumeNormal.Summary(benchmath.NewSample(vals, &benchmath.DefaultThresholds), confidence)
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

// throughputCell is a variant's throughput cell: the figure (shown by
// format), its spread and, past spreadFlag, a "*"; a throughput from too
// few operations gets lowMark (fewForThroughput). m records the marks
// given, for the table's note.
func throughputCell(figure float64, reps []result.Run, format func(float64) string, m *marks) string {
	s := format(figure)
	if spread, ok := relSpread(pooledRun(reps).OpsPerS, reps); ok {
		s += " ±" + strconv.Itoa(int(math.Round(spread*100))) + "%"
		if spread > spreadFlag {
			s += "*"
			m.spread = true
		}
	}
	if fewForThroughput(reps) {
		s += lowMark
		m.few = true
	}
	return s
}

// spreadNote explains the ± of a throughput and, when a cell was flagged,
// what to do about it: one line.
func spreadNote(repeat int, flagged bool) string {
	over := fmt.Sprintf("its %d repetitions", repeat)
	if repeat <= 1 {
		over = "its progress intervals (one moment of the machine: more repetitions give a truer one)"
	}
	s := fmt.Sprintf("±: the %.0f%% confidence interval of the throughput, from %s", confidence*100, over)
	if flagged {
		s += fmt.Sprintf("; * above %.0f%%: not a stable figure, rerun with more repetitions, or on a quieter machine", spreadFlag*100)
	}
	return s
}
