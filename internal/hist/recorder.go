package hist

import (
	"sync"
	"time"
)

// Recorder accumulates measurements from the workers of one shard. It is safe
// for concurrent use; Drain must be called by one goroutine at a time.
type Recorder struct {
	mu struct {
		sync.Mutex
		live Set
	}
	spare Set // owned by the draining goroutine
}

// NewRecorder returns a Recorder for n operation types.
func NewRecorder(n int, service bool) *Recorder {
	r := &Recorder{spare: NewSet(n, service)}
	r.mu.live = NewSet(n, service)
	return r
}

// Record adds one successful operation. service is ignored when the
// recorder does not keep service time apart.
func (r *Recorder) Record(op uint8, latency, service time.Duration, rows, bytes int64) {
	r.mu.Lock()
	o := &r.mu.live[op]
	o.Latency.RecordValue(clamp(int64(latency)))
	if o.Service != nil {
		o.Service.RecordValue(clamp(int64(service)))
	}
	o.Ops++
	o.Rows += rows
	o.Bytes += bytes
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
// most of the cost of recording. A Buffer is owned by one goroutine and
// keeps no service time (closed loop, where it equals latency). A record
// waits in the Buffer until bufferCap more arrive or until the next record
// comes MaxAge after the oldest, so interval snapshots stay close to real
// time; Flush must be called when the worker stops.
type Buffer struct {
	rec    *Recorder
	n      int
	oldest int64
	lat    [bufferCap]int64
	op     [bufferCap]uint8
	totals []bufTotals // per operation
}

type bufTotals struct{ ops, rows, bytes int64 }

const bufferCap = 128

// MaxAge bounds how long a record may sit in a Buffer before the next
// record flushes it, in nanoseconds.
const MaxAge = int64(time.Millisecond)

// NewBuffer returns a buffer in front of r.
func NewBuffer(r *Recorder) *Buffer {
	return &Buffer{rec: r, totals: make([]bufTotals, len(r.spare))}
}

// Record adds one successful operation that finished at now (nanoseconds on
// any monotonic clock).
func (b *Buffer) Record(now int64, op uint8, latency time.Duration, rows, bytes int64) {
	if b.n == 0 {
		b.oldest = now
	}
	b.lat[b.n], b.op[b.n] = int64(latency), op
	b.n++
	t := &b.totals[op]
	t.ops++
	t.rows += rows
	t.bytes += bytes
	if b.n == bufferCap || now-b.oldest >= MaxAge {
		b.Flush()
	}
}

// Flush hands every buffered record to the Recorder.
func (b *Buffer) Flush() {
	if b.n == 0 {
		return
	}
	r := b.rec
	r.mu.Lock()
	live := r.mu.live
	for i, v := range b.lat[:b.n] {
		live[b.op[i]].Latency.RecordValue(clamp(v))
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
