package report

import "golang.org/x/perf/benchmath"

// Interval is the 95 % confidence interval of the mean of vals (Student's
// t, benchstat's AssumeNormal): the statistic of every ± in the family
// tables (relSpread), for readers of figures outside them (a study's
// cells). ok is false for fewer than two values.
func Interval(vals []float64) (lo, hi float64, ok bool) {
	if len(vals) < 2 {
		return 0, 0, false
	}
	s := benchmath.AssumeNormal.Summary(benchmath.NewSample(vals, &benchmath.DefaultThresholds), confidence)
	return s.Lo, s.Hi, true
}
