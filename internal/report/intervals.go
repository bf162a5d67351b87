package report

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Ratio is a over b with its 95 % interval propagated from theirs: the
// two cells are measured apart, so the half-widths of their logarithms
// add in quadrature (the delta method), the interval of the ratio being
// wider than either's. N is the fewer repetitions of the two.
func Ratio(a, b Estimate) Estimate {
	e := Estimate{Value: a.Value / b.Value, Lo: math.NaN(), Hi: math.NaN(), N: min(a.N, b.N), Few: a.Few || b.Few}
	if a.HasInterval() && b.HasInterval() && a.Value > 0 && b.Value > 0 {
		h := math.Hypot(logHalfWidth(a), logHalfWidth(b))
		e.Lo, e.Hi = e.Value*math.Exp(-h), e.Value*math.Exp(h)
	}
	return e
}

// Difference is a − b with its 95 % interval: the half-widths of two
// independent cells add in quadrature.
func Difference(a, b Estimate) Estimate {
	e := Estimate{Value: a.Value - b.Value, Lo: math.NaN(), Hi: math.NaN(), N: min(a.N, b.N), Few: a.Few || b.Few}
	if a.HasInterval() && b.HasInterval() {
		h := math.Hypot((a.Hi-a.Lo)/2, (b.Hi-b.Lo)/2)
		e.Lo, e.Hi = e.Value-h, e.Value+h
	}
	return e
}

// logHalfWidth is the wider side of e's interval on a log scale; +Inf
// when the interval reaches 0.
func logHalfWidth(e Estimate) float64 {
	if e.Lo <= 0 {
		return math.Inf(1)
	}
	return math.Max(math.Log(e.Hi/e.Value), math.Log(e.Value/e.Lo))
}

// RepsToDecide estimates the repetitions per cell after which an interval
// of halfWidth from n repetitions would no longer reach a bound distance
// away from its centre, the repetitions' spread staying what it is: the
// half-width is Student's t over √n times their standard deviation. 0
// when it cannot be estimated (fewer than two repetitions, or the
// figure sits on its bound); capped at 1,000.
func RepsToDecide(n int, halfWidth, distance float64) int {
	if n < 2 || distance <= 0 || math.IsNaN(halfWidth) || math.IsInf(halfWidth, 0) {
		return 0
	}
	sd := halfWidth / tOverRootN(n)
	for m := n + 1; m <= 1000; m++ {
		if tOverRootN(m)*sd < distance {
			return m
		}
	}
	return 1000
}

// tOverRootN is the half-width of the 95 % interval of a mean of n values
// (benchmath.AssumeNormal's, the statistic of the tables' ±) per standard
// deviation of the values: t(n−1)/√n. It is read off a sample of known
// deviation, so that there is one interval statistic, not a second table
// of t.
func tOverRootN(n int) float64 {
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(i % 2)
	}
	var mean, sq float64
	for _, x := range vals {
		mean += x / float64(n)
	}
	for _, x := range vals {
		sq += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(sq / float64(n-1))
	s := benchmath.AssumeNormal.Summary(benchmath.NewSample(vals, &benchmath.DefaultThresholds), confidence)
	return (s.Hi - s.Lo) / 2 / sd
}

// MeanInterval is the mean of vals and its 95 % interval (the statistic
// of the tables' ±); NaN bounds with fewer than two values.
func MeanInterval(vals []float64) (mean, lo, hi float64) {
	if len(vals) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	if len(vals) < 2 {
		return vals[0], math.NaN(), math.NaN()
	}
	s := benchmath.AssumeNormal.Summary(benchmath.NewSample(slices.Clone(vals), &benchmath.DefaultThresholds), confidence)
	return s.Center, s.Lo, s.Hi
}

// Median is the median of xs (xs is left as it was).
func Median(xs []float64) float64 { return median(xs) }
