package merge

import (
	"fmt"
	"time"
)

// Throughput of a merged run is measured over the common measured window:
// the time during which every shard was measuring, from the latest real
// start (the shard's start_at plus its start_offset_ns) to the earliest end
// (that start plus its duration_s). It is the operations (rows, bytes) the
// shards completed inside that window divided by its length. A shard's
// share inside the window is read from its intervals, the one interval an
// edge cuts counted pro rata; a shard without intervals counts pro rata
// over its whole duration. When every shard ran the same duration from the
// same instant, this is simply all operations over that duration.

// window is the common measured window of one run's shards.
type window struct {
	// start[i], end[i]: the window on shard i's own clock, seconds since
	// its measured window began.
	start, end []float64
	starts     []time.Time // each shard's real start
	index      []int       // each shard's index
	ok         bool
}

func commonWindow(rs []*run) window {
	w := window{start: make([]float64, len(rs)), end: make([]float64, len(rs))}
	var from, to time.Time
	for i, r := range rs {
		s := r.Shard.StartAt.Add(time.Duration(r.Shard.StartOffsetNs))
		e := s.Add(time.Duration(r.DurationS * float64(time.Second)))
		w.starts = append(w.starts, s)
		w.index = append(w.index, r.Shard.Index)
		if i == 0 || s.After(from) {
			from = s
		}
		if i == 0 || e.Before(to) {
			to = e
		}
	}
	if !to.After(from) {
		return w
	}
	w.ok = true
	for i, s := range w.starts {
		w.start[i] = from.Sub(s).Seconds()
		w.end[i] = to.Sub(s).Seconds()
	}
	return w
}

// seconds is the window's length.
func (w window) seconds() float64 { return w.end[0] - w.start[0] }

// fraction is the share of shard i's operations done inside the window.
func (w window) fraction(r *run, i int) float64 {
	if r.DurationS <= 0 {
		return 1
	}
	return done(r, w.end[i]) - done(r, w.start[i])
}

// done is the share of r's operations done by t seconds into its measured
// window, interpolated within the interval t falls in.
func done(r *run, t float64) float64 {
	if t <= 0 {
		return 0
	}
	if t >= r.DurationS {
		return 1
	}
	var total int64
	for _, iv := range r.Intervals {
		total += iv.Ops
	}
	if total == 0 {
		return t / r.DurationS
	}
	var before int64
	prev := 0.0
	for _, iv := range r.Intervals {
		if t <= iv.TS {
			part := 1.0
			if iv.TS > prev {
				part = (t - prev) / (iv.TS - prev)
			}
			return (float64(before) + part*float64(iv.Ops)) / float64(total)
		}
		before += iv.Ops
		prev = iv.TS
	}
	return 1
}

// skew is how far apart the shards really started, and which shards were
// first and last.
func (w window) skew() (time.Duration, string) {
	if len(w.starts) < 2 {
		return 0, ""
	}
	lo, hi := 0, 0
	for i, s := range w.starts {
		if s.Before(w.starts[lo]) {
			lo = i
		}
		if s.After(w.starts[hi]) {
			hi = i
		}
	}
	return w.starts[hi].Sub(w.starts[lo]), fmt.Sprintf("shard %d first, shard %d last", w.index[lo], w.index[hi])
}
