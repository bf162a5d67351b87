package load

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbmeter/dbmeter/internal/hist"
)

// minSleep is the shortest the dispatcher sleeps between wake-ups. Each
// wake-up costs a few microseconds of CPU; at high rates, waking once per
// arrival would cost a core, while waking at most every minSleep hands out
// the arrivals due by then together. They start up to minSleep late, which
// the lag histogram shows.
const minSleep = 50 * time.Microsecond

// openLoop is the dispatcher. It sleeps until the next arrival is due,
// never before and never spinning (a spinning dispatcher takes a core from
// the server it measures), then hands out every arrival that is due.
//
// pending counts arrivals handed out and not yet finished (queued in the
// channel or running). A worker decrements it when its operation ends, so a
// worker on its way back to the channel is not mistaken for a busy one: a
// new worker is started only when more arrivals are pending than workers
// exist, up to MaxInFlight. Beyond MaxInFlight + Queue pending, an arrival
// is dropped and counted. The channel's capacity is that bound, so a send
// never blocks the dispatcher.
func (r *runner) openLoop(ctx context.Context, workers []Worker) {
	limit := int64(r.cfg.MaxInFlight + r.cfg.Queue)
	arrivals := make(chan int64, limit)
	var pending, alive atomic.Int64
	var wg sync.WaitGroup
	start := func(id int, w Worker, first int64) {
		rec := r.recs[id%len(r.recs)]
		wg.Go(func() { r.openWorker(ctx, w, rec, arrivals, &pending, first) })
	}
	for i, w := range workers {
		alive.Add(1)
		start(i, w, -1)
	}
	nextID := len(workers)
	// spawn makes a worker on demand and gives it the arrival that needed
	// it: making the worker (a new connection) is part of that arrival's
	// latency.
	spawn := func(due int64) {
		id := nextID
		nextID++
		alive.Add(1)
		wg.Go(func() {
			w, err := r.newWorker(ctx, id, r.rand(uint64(id)))
			if err != nil {
				alive.Add(-1)
				pending.Add(-1)
				if r.measured(due) {
					r.recordError(r.recs[id%len(r.recs)], 0, r.classify(err), err)
				}
				return
			}
			r.mu.Lock()
			r.mu.workers = append(r.mu.workers, w)
			r.mu.Unlock()
			start(id, w, due)
		})
	}

	sleep := r.cfg.Sleep
	if sleep == nil {
		var release func()
		sleep, release = PreciseSleeper()
		defer release()
	}
	sched := NewSchedule(r.cfg.Arrival, r.cfg.Rate, r.rand(math.MaxUint32))
	if c, ok := sched.(*constant); ok && r.cfg.Shard.Sharded() {
		c.n = float64(r.cfg.Shard.Index) / float64(r.cfg.Shard.Count)
	}
	var counted, lastWake int64
	maxWorkers := int64(r.cfg.MaxInFlight)
	for {
		due := int64(sched.Next()) // arrivals are timed from the start, warm-up included
		if due >= r.end.Load() {
			break
		}
		if r.cfg.Count > 0 && due >= r.mStart {
			if counted == r.cfg.Count {
				break
			}
			counted++
		}
		if due > r.now() {
			if !r.sleepUntil(sleep, max(due, lastWake+int64(minSleep))) {
				break
			}
			lastWake = r.now()
		}
		p := pending.Load()
		if p >= limit {
			if r.measured(due) {
				r.dropped.Add(1)
			}
			continue
		}
		pending.Add(1)
		if n := alive.Load(); p >= n && n < maxWorkers {
			spawn(due)
			continue
		}
		arrivals <- due
	}
	close(arrivals)
	wg.Wait()
}

// sleepUntil waits until t in slices short enough to notice an interrupt
// (which moves the end of the window to now). It reports false when the
// window ended first.
func (r *runner) sleepUntil(sleep func(time.Duration), t int64) bool {
	const slice = int64(50 * time.Millisecond)
	for {
		d := t - r.now()
		if d <= 0 {
			return true
		}
		if t >= r.end.Load() {
			return false
		}
		sleep(time.Duration(min(d, slice)))
	}
}

// openSlot is one open-loop worker and what it records into, resolved once
// rather than per operation.
type openSlot struct {
	w     Worker
	sched Scheduled // w as a Scheduled worker, or nil
	rec   *hist.Recorder
	buf   *hist.Buffer
}

// openWorker serves arrivals until the channel is closed and drained; first,
// when not -1, is an arrival to serve before taking more. A panic inside Do
// is counted as in closedWorker and the worker goes on.
func (r *runner) openWorker(ctx context.Context, w Worker, rec *hist.Recorder, arrivals <-chan int64, pending *atomic.Int64, first int64) {
	debug.SetPanicOnFault(true)
	sl := &openSlot{w: w, rec: rec, buf: hist.NewBuffer(rec, hist.OpenBuffer)}
	sl.sched, _ = w.(Scheduled)
	defer sl.buf.Flush()
	due := first
	for r.serve(ctx, sl, arrivals, pending, &due) {
	}
}

// serve runs arrivals. *due is the arrival in hand (-1: none), so that a
// panic is counted against it. It reports whether it stopped on a panic and
// the worker should go on.
func (r *runner) serve(ctx context.Context, sl *openSlot, arrivals <-chan int64, pending *atomic.Int64, due *int64) (panicked bool) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		r.rethrowOwn(p)
		if r.measured(*due) {
			r.recordError(sl.rec, 0, KindPanic, fmt.Errorf("panic: %v", p))
		}
		*due = -1
		pending.Add(-1)
		panicked = true
	}()
	if *due >= 0 {
		r.openOp(ctx, sl, *due)
		*due = -1
		pending.Add(-1)
	}
	for {
		var d int64
		var ok bool
		select {
		case d, ok = <-arrivals:
		default:
			// Going idle: hand the buffer over now, so intervals see every
			// operation that ended in them.
			sl.buf.Flush()
			d, ok = <-arrivals
		}
		if !ok {
			return false
		}
		*due = d
		r.openOp(ctx, sl, d)
		*due = -1
		pending.Add(-1)
	}
}

func (r *runner) openOp(ctx context.Context, sl *openSlot, due int64) {
	began := r.now()
	measured := r.measured(due)
	if r.cfg.SkipLate > 0 && began-due > int64(r.cfg.SkipLate) {
		if measured {
			r.dropped.Add(1)
			r.late.Add(1)
		}
		if sl.sched != nil {
			sl.sched.Skipped(r.base.Add(time.Duration(due)))
		}
		return
	}
	if sl.sched != nil {
		sl.sched.Scheduled(r.base.Add(time.Duration(due)))
	}
	out, err := sl.w.Do(ctx)
	end := r.now()
	if !measured {
		return
	}
	r.checkOp(out.Op)
	if err != nil {
		r.recordError(sl.rec, out.Op, r.kindOf(ctx, err), err)
		return
	}
	sl.buf.Record(end, out.Op, &hist.Sample{
		Latency: end - due, Service: end - began, Lag: began - due,
		Rows: out.Rows, Bytes: out.Bytes, Phases: out.Phases,
	})
}
