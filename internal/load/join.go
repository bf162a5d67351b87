package load

import "github.com/dbmeter/dbmeter/internal/result"

// Join appends next, a run that went on with the same workload on the same
// target right after r (a K/V del cell deletes its keys in rounds, with the
// keys put back, untimed, between them), so that r reads as one measured
// window: the histograms are added, the windows and costs summed, and next's
// intervals follow r's on one time axis. Both runs must have the same
// operations.
func (r *Result) Join(next *Result) {
	offset := r.Elapsed.Seconds()
	r.Set.Merge(next.Set)
	for i := range r.Intervals {
		r.Intervals[i] = appendShifted(r.Intervals[i], next.Intervals[i], offset)
	}
	r.Total = appendShifted(r.Total, next.Total, offset)
	r.Elapsed += next.Elapsed
	r.Dropped += next.Dropped
	r.Cost = costSample{cpu: r.Cost.cpu + next.Cost.cpu, allocs: r.Cost.allocs + next.Cost.allocs, allocBytes: r.Cost.allocBytes + next.Cost.allocBytes, written: r.Cost.written + next.Cost.written}
	r.Warnings = append(r.Warnings, next.Warnings...)
	if r.ErrorSamples == nil && len(next.ErrorSamples) > 0 {
		r.ErrorSamples = map[ErrorSample]string{}
	}
	for k, v := range next.ErrorSamples {
		if _, ok := r.ErrorSamples[k]; !ok {
			r.ErrorSamples[k] = v // the first message of each kind stays
		}
	}
	r.Interrupted = r.Interrupted || next.Interrupted
}

// appendShifted appends next to ivs, each moved offset seconds later.
func appendShifted(ivs, next []result.Interval, offset float64) []result.Interval {
	for _, iv := range next {
		iv.TS += offset
		ivs = append(ivs, iv)
	}
	return ivs
}
