package ycsb

import (
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// A Chooser draws record numbers. Choosers are not safe for concurrent use
// unless they say so: each worker has its own.
type Chooser interface {
	Next(r *rand.Rand) int64
}

// Uniform is YCSB's UniformLongGenerator over lb…ub.
type Uniform struct{ lb, n int64 }

// NewUniform returns the uniform chooser over lb…ub.
func NewUniform(lb, ub int64) Uniform { return Uniform{lb: lb, n: ub - lb + 1} }

// Next draws a number.
func (u Uniform) Next(r *rand.Rand) int64 { return u.lb + r.Int64N(u.n) }

// Hotspot is YCSB's HotspotIntegerGenerator: a share opnFraction of draws
// go to the first dataFraction of lb…ub, uniformly; the rest to the rest.
type Hotspot struct {
	lb, hot, cold int64
	opnFraction   float64
}

// YCSB's hotspot defaults (hotspotdatafraction, hotspotopnfraction).
const (
	HotspotDataFraction = 0.2
	HotspotOpnFraction  = 0.8
)

// NewHotspot returns the hotspot chooser over lb…ub.
func NewHotspot(lb, ub int64, dataFraction, opnFraction float64) Hotspot {
	n := ub - lb + 1
	hot := int64(float64(n) * dataFraction)
	return Hotspot{lb: lb, hot: hot, cold: n - hot, opnFraction: opnFraction}
}

// Next draws a number.
func (h Hotspot) Next(r *rand.Rand) int64 {
	if r.Float64() < h.opnFraction {
		return h.lb + r.Int64N(h.hot)
	}
	return h.lb + h.hot + r.Int64N(h.cold)
}

// SkewedLatest is YCSB's SkewedLatestGenerator: it favours the records
// inserted last, zipfian by age, over the records its basis has
// acknowledged. Like YCSB's, it never draws record 0 (its zipfian covers
// one record fewer than there are) and it grows the zipfian's zeta as
// records are inserted.
type SkewedLatest struct {
	basis   *Counter
	zipfian Zipfian
}

// Latest prepares SkewedLatest choosers over basis: the zeta of the
// records acknowledged now is computed once, here, and each Chooser copies
// it.
type Latest struct {
	basis   *Counter
	zipfian *Zipfian
}

// NewLatest computes the zeta over basis's acknowledged records.
func NewLatest(basis *Counter) *Latest {
	return &Latest{basis: basis, zipfian: NewZipfianRange(0, basis.Last()-1, ZipfianConstant)}
}

// Chooser returns a SkewedLatest of its own.
func (l *Latest) Chooser() *SkewedLatest {
	return &SkewedLatest{basis: l.basis, zipfian: *l.zipfian}
}

// Next draws a record number.
func (s *SkewedLatest) Next(r *rand.Rand) int64 {
	last := s.basis.Last()
	return last - s.zipfian.NextOf(r, last)
}

// Counter is YCSB's AcknowledgedCounterGenerator: Next hands out
// consecutive numbers to inserters, and Last is the highest number below
// which every number handed out has been acknowledged, so that readers
// never pick a record still being inserted. It is safe for concurrent use.
type Counter struct {
	next  atomic.Int64
	limit atomic.Int64
	mu    struct {
		sync.Mutex
		window []bool // acknowledged numbers past limit, by number mod windowSize
	}
}

// windowSize bounds the numbers handed out but not yet acknowledged, as
// YCSB's does.
const windowSize = 1 << 20

// NewCounter returns a counter whose first number is start: records
// 0…start-1 exist.
func NewCounter(start int64) *Counter {
	c := &Counter{}
	c.next.Store(start)
	c.limit.Store(start - 1)
	c.mu.window = make([]bool, windowSize)
	return c
}

// Next hands out the next number.
func (c *Counter) Next() int64 { return c.next.Add(1) - 1 }

// Last returns the highest acknowledged number with no gap below it.
func (c *Counter) Last() int64 { return c.limit.Load() }

// ErrTooManyPending is what Acknowledge returns when a number is
// acknowledged more than a window ahead of the oldest unacknowledged one.
var ErrTooManyPending = errors.New("too many unacknowledged inserts")

// Acknowledge marks n as inserted (or given up on: YCSB acknowledges a
// failed insert too, so one failure does not stall Last).
func (c *Counter) Acknowledge(n int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot := n & (windowSize - 1)
	if c.mu.window[slot] {
		return ErrTooManyPending
	}
	c.mu.window[slot] = true
	limit := c.limit.Load()
	for {
		s := (limit + 1) & (windowSize - 1)
		if !c.mu.window[s] {
			break
		}
		c.mu.window[s] = false
		limit++
	}
	c.limit.Store(limit)
	return nil
}
