package kv

import (
	"runtime"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
)

// The defaults are sized so that `dbmeter kv` with no flags runs the whole
// engine × operation matrix, every cell seven times on a store of its own,
// in about two minutes on 2 cores. Many short repetitions rather than a
// few long ones: on a shared machine a cell's speed moves with the
// machine's state, which lasts longer than a repetition (a 1 s repetition
// moves as much as a 100 ms one), so only more repetitions, far apart in
// time, narrow the pooled figure (docs/kv.md, "Why these defaults").
const (
	DefaultRepeat = 7
	// snapshots is how many progress snapshots a cell takes when no
	// interval is asked for, so that even a short cell has a curve over
	// time and a spread across its intervals.
	snapshots = 10
)

// DefaultLoad is a cell's load when the user sets none of it: 100 ms
// measured after 30 ms of warm-up, by a worker per CPU (at least 2, for
// setmixed/getmixed's writer and reader).
func DefaultLoad() load.Config {
	c := load.DefaultConfig()
	c.Workers = max(2, runtime.GOMAXPROCS(0))
	c.Duration = 100 * time.Millisecond
	c.Warmup = 30 * time.Millisecond
	return c
}

// ProgressInterval is the interval of a cell's progress snapshots when
// none is asked for: a tenth of its measured window d, at least 1 ms.
func ProgressInterval(d time.Duration) time.Duration {
	return max(d/snapshots, time.Millisecond)
}
