package hist

import (
	"sync"
	"time"
)

// Recorder accumulates measurements from the workers of one shard. It is safe
// for concurrent use; Drain must be called by one goroutine at a time.
type Recorder struct {
	kept Kept
	ops  int // operation types: fixed, so a Buffer made during a Drain need not read spare
	mu   struct {
		sync.Mutex
		live Set
	}
	spare Set // owned by the draining goroutine
}

// NewRecorder returns a Recorder for n operation types keeping k.
func NewRecorder(n int, k Kept) *Recorder {
	r := &Recorder{kept: k, ops: n, spare: NewSet(n, k)}
	r.mu.live = NewSet(n, k)
	return r
}

// Record adds one successful operation.
func (r *Recorder) Record(op uint8, s *Sample) {
	r.mu.Lock()
	r.mu.live[op].record(s, r.kept.Phases)
	r.mu.Unlock()
}

// RecordError counts one failed operation of the given kind. Failed
// operations stay out of the latency histograms: a fast refusal must not make
// the percentiles look better.
func (r *Recorder) RecordError(op uint8, kind string) {
	r.mu.Lock()
	o := &r.mu.live[op]
	o.Errors++
	o.Kinds[kind]++
	r.mu.Unlock()
}

// Drain moves everything recorded since the last Drain into dst.
func (r *Recorder) Drain(dst Set) {
	r.mu.Lock()
	r.mu.live, r.spare = r.spare, r.mu.live
	r.mu.Unlock()
	dst.Merge(r.spare)
	r.spare.Reset()
}

// Buffer batches one worker's records so that a fast operation pays for the
// Recorder's lock once per batch instead of once per operation; the lock is
// most of the cost of recording, and with many workers it would be contended.
// A Buffer is owned by one goroutine. A record waits in the Buffer until the
// Buffer is full or until the next record comes MaxAge after the oldest, so
// interval snapshots stay close to real time; Flush must be called when the
// worker stops.
type Buffer struct {
	rec    *Recorder
	n      int
	oldest int64
	op     []uint8
	lat    []int64
	svc    []int64     // nil unless the recorder keeps service time
	lag    []int64     // nil unless it keeps lag
	ph     []Phases    // nil unless it keeps phases
	totals []bufTotals // per operation
}

type bufTotals struct{ ops, rows, bytes int64 }

// Buffer sizes: a closed-loop worker records millions of operations a second
// and amortises the lock over many; an open-loop run may have a thousand
// workers, each recording a small share of the rate, so each holds few.
const (
	ClosedBuffer = 128
	OpenBuffer   = 16
)

// MaxAge bounds how long a record may sit in a Buffer before the next
// record flushes it, in nanoseconds.
const MaxAge = int64(time.Millisecond)

// NewBuffer returns a buffer of size records in front of r.
func NewBuffer(r *Recorder, size int) *Buffer {
	b := &Buffer{rec: r, op: make([]uint8, size), lat: make([]int64, size), totals: make([]bufTotals, r.ops)}
	if r.kept.Service {
		b.svc = make([]int64, size)
	}
	if r.kept.Lag {
		b.lag = make([]int64, size)
	}
	if r.kept.Phases > 0 {
		b.ph = make([]Phases, size)
	}
	return b
}

// Record adds one successful operation that finished at now (nanoseconds on
// any monotonic clock).
func (b *Buffer) Record(now int64, op uint8, s *Sample) {
	if b.n == 0 {
		b.oldest = now
	}
	i := b.n
	b.op[i], b.lat[i] = op, s.Latency
	if b.svc != nil {
		b.svc[i] = s.Service
	}
	if b.lag != nil {
		b.lag[i] = s.Lag
	}
	if b.ph != nil {
		if s.Phases != nil {
			b.ph[i] = *s.Phases
		} else {
			b.ph[i] = Phases{}
		}
	}
	b.n++
	t := &b.totals[op]
	t.ops++
	t.rows += s.Rows
	t.bytes += s.Bytes
	if b.n == len(b.lat) || now-b.oldest >= MaxAge {
		b.Flush()
	}
}

// Flush hands every buffered record to the Recorder.
func (b *Buffer) Flush() {
	if b.n == 0 {
		return
	}
	r := b.rec
	nph := r.kept.Phases
	r.mu.Lock()
	live := r.mu.live
	for i := range b.n {
		o := &live[b.op[i]]
		o.Latency.RecordValue(clamp(b.lat[i]))
		if b.svc != nil {
			o.Service.RecordValue(clamp(b.svc[i]))
		}
		if b.lag != nil {
			o.Lag.RecordValue(clamp(b.lag[i]))
		}
		for p := range nph {
			if d := b.ph[i][p]; d > 0 {
				o.Phases[p].Hist.RecordValue(clamp(int64(d)))
				o.Phases[p].TotalNs += int64(d)
			}
		}
	}
	for i := range b.totals {
		t, o := &b.totals[i], &live[i]
		o.Ops += t.ops
		o.Rows += t.rows
		o.Bytes += t.bytes
		*t = bufTotals{}
	}
	r.mu.Unlock()
	b.n = 0
}
