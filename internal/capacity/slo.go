// Package capacity finds the highest open-loop rate a target sustains under
// a service-level objective: an exponential ramp until the objective fails,
// bisection to a set precision, then confirmation at the answer. Zero drops
// is always part of the objective: an arrival never issued is a failure.
package capacity

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// An Objective bounds one figure of a run: a latency percentile (from the
// intended start) or the share of operations that failed.
type Objective struct {
	Metric string  // p50 p90 p99 p999 max mean errors
	Limit  float64 // ns for latencies; a fraction for errors
}

// SLO is every objective a step must meet, as written by the user.
type SLO struct {
	Text       string
	Objectives []Objective
}

// ParseSLO reads "p99<15ms", "p99<15ms,p999<50ms", "errors<0.1%".
func ParseSLO(s string) (SLO, error) {
	slo := SLO{Text: s}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		metric, limit, ok := strings.Cut(part, "<")
		if !ok || part == "" {
			return SLO{}, fmt.Errorf("objective %q: want METRIC<LIMIT, e.g. p99<15ms or errors<0.1%%", part)
		}
		metric, limit = strings.TrimSpace(metric), strings.TrimSpace(limit)
		o := Objective{Metric: metric}
		switch metric {
		case "p50", "p90", "p99", "p999", "p99.9", "max", "mean":
			if metric == "p99.9" {
				o.Metric = "p999"
			}
			d, err := time.ParseDuration(limit)
			if err != nil || d <= 0 {
				return SLO{}, fmt.Errorf("objective %q: %q is not a positive duration such as 15ms", part, limit)
			}
			o.Limit = float64(d)
		case "errors":
			pct, ok := strings.CutSuffix(limit, "%")
			v, err := strconv.ParseFloat(pct, 64)
			if !ok || err != nil || v < 0 || v > 100 {
				return SLO{}, fmt.Errorf("objective %q: %q is not a percentage such as 0.1%%", part, limit)
			}
			o.Limit = v / 100
		default:
			return SLO{}, fmt.Errorf("objective %q: unknown metric %q (want p50, p90, p99, p999, max, mean or errors)", part, metric)
		}
		slo.Objectives = append(slo.Objectives, o)
	}
	return slo, nil
}

// Check says whether run met every objective and no arrival was dropped;
// reason names the first miss.
func (s SLO) Check(run *result.Run) (pass bool, reason string) {
	if run.Dropped > 0 {
		return false, fmt.Sprintf("%d arrivals dropped", run.Dropped)
	}
	if run.Ops == 0 {
		return false, "no operation succeeded"
	}
	l := run.Latency
	for _, o := range s.Objectives {
		var got float64
		switch o.Metric {
		case "p50":
			got = float64(l.P50)
		case "p90":
			got = float64(l.P90)
		case "p99":
			got = float64(l.P99)
		case "p999":
			got = float64(l.P999)
		case "max":
			got = float64(l.Max)
		case "mean":
			got = l.Mean
		case "errors":
			share := float64(run.Errors) / float64(run.Ops+run.Errors)
			if share >= o.Limit {
				return false, fmt.Sprintf("errors %.3g%% >= %.3g%%", share*100, o.Limit*100)
			}
			continue
		}
		if got >= o.Limit {
			return false, fmt.Sprintf("%s %s >= %s", o.Metric, time.Duration(got), time.Duration(o.Limit))
		}
	}
	return true, ""
}

// MinOps is how many operations a step needs for its percentiles to mean
// something: a hundred beyond the tightest percentile's tail (p99: 100, so
// that p99 is not simply the maximum; p999: 1,000), and at least 100.
func (s SLO) MinOps() int {
	for _, o := range s.Objectives {
		if o.Metric == "p999" {
			return 1000
		}
	}
	return 100
}
