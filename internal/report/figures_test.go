package report

import (
	"math"
	"testing"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
)

func figureReps(xs ...float64) []*result.Run {
	var out []*result.Run
	for _, x := range xs {
		out = append(out, &result.Run{Workers: 4, Stats: result.Stats{DurationS: 2, Ops: int64(2 * x), OpsPerS: x}})
	}
	return out
}

// TestEstimateIsTheTables checks that a figure's estimate is the family
// tables' pooled figure and ±, and that a figure derived from the
// throughput is derived from the pooled one.
func TestEstimateIsTheTables(t *testing.T) {
	rs := figureReps(1000, 1400, 1100)
	runs := []result.Run{*rs[0], *rs[1], *rs[2]}
	tp, _ := LookupFigure("throughput")
	e, ok := tp.Estimate(rs)
	spread, _ := relSpread(pooledRun(runs).OpsPerS, runs)
	if !ok || e.Value != pooledRun(runs).OpsPerS || math.Abs(e.Spread()-spread) > 1e-9 || e.N != 3 {
		t.Errorf("throughput %+v, want the pooled %v ±%v over 3", e, pooledRun(runs).OpsPerS, spread)
	}
	pw, _ := LookupFigure("per_worker_ns")
	d, _ := pw.Estimate(rs)
	if want := 1e9 / (e.Value * 4); math.Abs(d.Value-want) > 1e-9*want {
		t.Errorf("per_worker_ns %v, want 1e9/(pooled %v × 4) = %v", d.Value, e.Value, want)
	}
	if d.Lo >= d.Value || d.Hi <= d.Value {
		t.Errorf("per_worker_ns interval %v–%v does not hold %v", d.Lo, d.Hi, d.Value)
	}
}

func TestRatioAndReps(t *testing.T) {
	a := Estimate{Value: 110, Lo: 100, Hi: 120, N: 3}
	b := Estimate{Value: 100, Lo: 90, Hi: 110, N: 5}
	q := Ratio(a, b)
	if q.N != 3 || !(q.Lo < 1 && q.Hi > 1.2) {
		t.Errorf("ratio %+v: want n=3 and an interval wider than either cell's", q)
	}
	if d := Difference(a, b); math.Abs(d.Value-10) > 1e-9 || math.Abs((d.Hi-d.Lo)/2-math.Hypot(10, 10)) > 1e-9 {
		t.Errorf("difference %+v, want 10 ± √200", d)
	}
	if n := RepsToDecide(3, 10, 5); n <= 3 || n > 100 {
		t.Errorf("RepsToDecide(3, 10, 5) = %d, want a few more than 3", n)
	}
	if n := RepsToDecide(3, 10, 0); n != 0 {
		t.Errorf("on the bound: %d, want 0 (never decides)", n)
	}
}

// TestOneRepetitionMean checks that a mean latency from one repetition
// has the interval of the mean over its operations.
func TestOneRepetitionMean(t *testing.T) {
	r := &result.Run{Workers: 1, Stats: result.Stats{DurationS: 1, Ops: 400, OpsPerS: 400, Latency: result.Latency{Mean: 100, Stddev: 20}}}
	f, _ := LookupFigure("mean")
	e, ok := f.Estimate([]*result.Run{r})
	if want := 1.96 * 20 / 20 / 100; !ok || math.Abs(e.Spread()-want) > 1e-9 {
		t.Errorf("one repetition's mean: %+v (spread %v), want ±%v", e, e.Spread(), want)
	}
	if p99, _ := LookupFigure("p99"); p99.Name == "p99" {
		if e, _ := p99.Estimate([]*result.Run{r}); e.HasInterval() {
			t.Errorf("one repetition's p99 has an interval %v–%v: no statistic gives one", e.Lo, e.Hi)
		}
	}
}

// TestOneRepetitionPercentile checks the distribution-free interval of a
// percentile of one repetition: the values at ranks n·q ± 1.96·√(n·q·(1−q)).
func TestOneRepetitionPercentile(t *testing.T) {
	h := hist.New()
	for v := int64(1); v <= 1000; v++ {
		if err := h.RecordValue(v * 1000); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := result.EncodeHDR(h)
	if err != nil {
		t.Fatal(err)
	}
	r := &result.Run{Workers: 1, Stats: result.Stats{DurationS: 1, Ops: 1000, OpsPerS: 1000, Latency: result.LatencyOf(h), LatencyHDR: enc}}
	f, _ := LookupFigure("p50")
	e, ok := f.Estimate([]*result.Run{r})
	// ranks 500 ± 31: about 469 µs to 531 µs
	if !ok || !e.HasInterval() || e.Lo < 460e3 || e.Lo > 475e3 || e.Hi < 525e3 || e.Hi > 540e3 {
		t.Errorf("p50 of 1..1000 µs: %v (%v–%v), want about 469–531 µs", e.Value, e.Lo, e.Hi)
	}
}
