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

// The open loop's workers schedule themselves. One worker at a time, the
// leader, takes the next arrival from the shared schedule, sleeps until it
// is due (never before, never spinning: a spinning client takes a core from
// the server it measures), runs it and takes the next. An arrival costs one
// timer wake-up, with no hand-off to another thread. The other workers wait
// on a channel.
//
// Before each operation the leader moves the supervisor's alarm to
// alarmGuard after its own next wake-up. The alarm fires only when the
// leader is still busy then, or when there is no leader: the supervisor
// then takes each arrival that is due and hands it to a waiting worker,
// starts a new one (up to MaxInFlight), queues it (Queue) or drops and
// counts it, as one dispatcher would. It deposes the busy leader, so that
// the first worker to finish leads next.
//
// pending counts arrivals taken and not yet finished (running, or waiting
// on the channel). A worker decrements it when its operation ends, so a
// worker on its way back is not mistaken for a busy one: a new worker is
// started only when more arrivals are pending than workers exist. Beyond
// MaxInFlight + Queue pending, an arrival is dropped. The channel's capacity
// is that bound, so the supervisor never blocks on it.
const (
	// minSleep is the shortest the leader sleeps between wake-ups. A
	// wake-up costs tens of microseconds of CPU on a VM; at high rates the
	// leader runs the arrivals due by then together, up to minSleep late,
	// which the lag histogram shows.
	minSleep = 50 * time.Microsecond
	// alarmGuard is how long after its wake-up is due the leader has to
	// start its next operation before the supervisor takes over: longer
	// than a timer usually wakes late, so that the alarm rarely fires for
	// a leader that is only waking up.
	alarmGuard = 100 * time.Microsecond
	// sleepSlice bounds one sleep, so that an interrupt, which moves the
	// end of the window to now, is noticed.
	sleepSlice = 50 * time.Millisecond
)

// busy is set in openLoop.leader while the leader runs an operation.
const busy = 1

type openLoop struct {
	r        *runner
	ctx      context.Context
	arrivals *arrivals
	// limit is MaxInFlight + Queue; maxWorkers is MaxInFlight.
	limit, maxWorkers int64
	pending, alive    atomic.Int64
	handoff           chan int64 // arrivals for waiting workers, queued ones included
	// leader is 0 when no worker leads, else the leader's id+1 shifted
	// left once, with busy set while it runs an operation. Only the
	// leader sets busy and clears it; the supervisor clears the whole word
	// (deposes the leader) only while busy is set, so a leader that is
	// not busy cannot lose its lead and two workers never sleep on wake.
	leader    atomic.Int64
	busySince atomic.Int64 // when the leader's operation started
	// The leader's own, used by one worker at a time.
	wake     wakeTimer
	wakeAt   int64 // when wake is armed to fire; 0: unknown
	lastWake int64
	alarm    alarm
	wg       sync.WaitGroup
	nextID   int // the supervisor's
}

func (r *runner) openLoop(ctx context.Context, workers []Worker) {
	o := &openLoop{r: r, ctx: ctx, limit: int64(r.cfg.MaxInFlight + r.cfg.Queue), maxWorkers: int64(r.cfg.MaxInFlight)}
	o.handoff = make(chan int64, o.limit)
	sched := NewSchedule(r.cfg.Arrival, r.cfg.Rate, r.rand(math.MaxUint32))
	if c, ok := sched.(*constant); ok && r.cfg.Shard.Sharded() {
		c.n = float64(r.cfg.Shard.Index) / float64(r.cfg.Shard.Count)
	}
	o.arrivals = newArrivals(sched, r.cfg.Count, r.mStart, &r.end)
	o.wake, o.alarm.t = r.timers()
	defer o.wake.close()
	defer o.alarm.close()
	// An interrupt moves the end of the window to now: the supervisor must
	// see it even while it waits for an arrival far ahead.
	defer context.AfterFunc(ctx, o.kick)()

	o.leader.Store(1 << 1) // worker 0 leads first
	for i, w := range workers {
		o.alive.Add(1)
		o.start(i, w, -1)
	}
	o.nextID = len(workers)
	o.supervise()
	o.wg.Wait()
}

// timers returns the leader's wake-up timer and the supervisor's alarm:
// timerfds, or Go's timers when the run's Sleep replaces the precise sleep
// (tests under synctest) or the system has no timerfd.
func (r *runner) timers() (wake, alarm wakeTimer) {
	if r.cfg.Sleep == nil {
		w, err := newHRTimer()
		if err == nil {
			a, err := newHRTimer()
			if err == nil {
				return w, a
			}
			w.close()
		}
	}
	sleep := r.cfg.Sleep
	if sleep == nil {
		sleep = time.Sleep
	}
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &sleepTimer{sleep: sleep}, goTimer{t}
}

// start runs worker id, which first serves arrival first unless it is -1.
func (o *openLoop) start(id int, w Worker, first int64) {
	rec := o.r.recs[id%len(o.r.recs)]
	o.wg.Go(func() { o.work(int64(id+1)<<1, w, rec, first) })
}

// spawn makes a worker on demand and gives it the arrival that needed it:
// making the worker (a new connection) is part of that arrival's latency.
func (o *openLoop) spawn(due int64) {
	id := o.nextID
	o.nextID++
	o.alive.Add(1)
	o.wg.Go(func() {
		r := o.r
		w, err := r.newWorker(o.ctx, id, r.rand(uint64(id)))
		if err != nil {
			o.alive.Add(-1)
			o.pending.Add(-1)
			if r.measured(due) {
				r.recordError(r.recs[id%len(r.recs)], 0, r.classify(err), err)
			}
			return
		}
		r.mu.Lock()
		r.mu.workers = append(r.mu.workers, w)
		r.mu.Unlock()
		o.start(id, w, due)
	})
}

// supervise wakes when the alarm fires: when the leader has been busy past
// its next wake-up, or there is no leader and an arrival is due. It hands
// out every arrival that is due then, and returns when the schedule ends.
func (o *openLoop) supervise() {
	r := o.r
loop:
	for !o.arrivals.stopped.Load() && o.arrivals.due.Load() < r.end.Load() {
		now := r.now()
		st, next := o.leader.Load(), o.arrivals.due.Load()
		var at int64 // when to look again; 0: when the leader sets the alarm
		switch {
		case st != 0 && st&busy == 0: // a leader is on its way to the next arrival
		case st == 0 && next > now:
			at = next
		case st&busy != 0 && now < max(next, o.busySince.Load())+int64(alarmGuard):
			at = max(next, o.busySince.Load()) + int64(alarmGuard)
		default:
			// Only an arrival due now: the leader may have finished and
			// taken next since it was read, and the one after it may not be
			// due yet; handed over, it would start early.
			due, ok := o.arrivals.takeDue(now)
			if !ok {
				continue // taken meanwhile, or the schedule ended: look again
			}
			if st != 0 {
				o.leader.CompareAndSwap(st, 0)
			}
			o.dispatch(due)
			continue
		}
		if at > 0 {
			o.alarm.set(at, now, 0)
		}
		if !o.alarm.wait() {
			break loop
		}
	}
	close(o.handoff)
}

// dispatch hands arrival due to a waiting worker, or to a new one, or
// queues or drops it.
func (o *openLoop) dispatch(due int64) {
	p := o.pending.Load()
	if p >= o.limit {
		if o.r.measured(due) {
			o.r.dropped.Add(1)
		}
		return
	}
	o.pending.Add(1)
	if n := o.alive.Load(); p >= n && n < o.maxWorkers {
		o.spawn(due)
		return
	}
	o.handoff <- due
}

// kick wakes the supervisor at once.
func (o *openLoop) kick() {
	now := o.r.now()
	o.alarm.set(now, now, 0)
}

// openSlot is one open-loop worker and what it records into, resolved once
// rather than per operation.
type openSlot struct {
	w     Worker
	sched Scheduled // w as a Scheduled worker, or nil
	rec   *hist.Recorder
	buf   *hist.Buffer
}

func (o *openLoop) work(me int64, w Worker, rec *hist.Recorder, first int64) {
	debug.SetPanicOnFault(true)
	sl := &openSlot{w: w, rec: rec, buf: hist.NewBuffer(rec, hist.OpenBuffer)}
	sl.sched, _ = w.(Scheduled)
	defer sl.buf.Flush()
	due := first
	for o.serve(sl, me, &due) {
	}
}

// serve runs arrivals until the run ends: *due first, unless it is -1;
// then as the leader whenever no worker leads, else those handed over. *due
// is the arrival in hand, so that a panic is counted against it. A panic
// inside Do is counted as in closedWorker and the worker goes on: serve
// reports whether it stopped on one.
func (o *openLoop) serve(sl *openSlot, me int64, due *int64) (panicked bool) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		o.r.rethrowOwn(p)
		if *due >= 0 {
			if o.r.measured(*due) {
				o.r.recordError(sl.rec, 0, KindPanic, fmt.Errorf("panic: %v", p))
			}
			*due = -1
			o.pending.Add(-1)
		}
		o.leader.CompareAndSwap(me|busy, me)
		panicked = true
	}()
	if *due >= 0 {
		o.run(sl, due)
	}
	for {
		if (o.leader.Load() == me || o.leader.CompareAndSwap(0, me)) && o.lead(sl, me, due) {
			continue // deposed: lead again if no other worker does
		}
		var ok bool
		select {
		case *due, ok = <-o.handoff:
		default:
			// Going idle: hand the buffer over now, so intervals see every
			// operation that ended in them.
			sl.buf.Flush()
			*due, ok = <-o.handoff
		}
		if !ok {
			*due = -1
			return false
		}
		o.run(sl, due)
	}
}

// run runs an arrival handed over (counted in pending already).
func (o *openLoop) run(sl *openSlot, due *int64) {
	o.r.openOp(o.ctx, sl, *due)
	*due = -1
	o.pending.Add(-1)
}

// lead runs arrivals as the leader until it is deposed (true) or the
// schedule ends (false).
func (o *openLoop) lead(sl *openSlot, me int64, due *int64) (deposed bool) {
	r := o.r
	for {
		d, handed := int64(0), false
		// Arrivals handed over or queued are older than any not yet taken.
		select {
		case q, ok := <-o.handoff:
			if !ok {
				o.resign(me)
				return false
			}
			d, handed = q, true
		default:
			var ok bool
			if d, ok = o.arrivals.take(); !ok || !o.sleepUntil(sl, d) {
				o.resign(me)
				return false
			}
		}
		// prepare writes the leader's own fields: before busy is set, since
		// the supervisor may depose a busy leader and another worker lead.
		now := r.now()
		o.prepare(now)
		o.busySince.Store(now)
		o.leader.Store(me | busy)
		if !handed {
			o.pending.Add(1)
		}
		*due = d
		o.run(sl, due)
		if !o.leader.CompareAndSwap(me|busy, me) {
			return true
		}
	}
}

// resign gives up the lead at the end of the schedule and tells the
// supervisor.
func (o *openLoop) resign(me int64) {
	o.leader.CompareAndSwap(me, 0)
	o.kick()
}

// prepare, before an operation, arms the leader's next wake-up and moves
// the supervisor's alarm to alarmGuard after it, in that order: the timer
// due first is the one the kernel reprograms the clock for, which on a VM
// costs ten times arming one due later.
func (o *openLoop) prepare(now int64) {
	t := now
	if next := o.arrivals.due.Load(); next > now {
		t = max(next, o.lastWake+int64(minSleep))
		if t-now <= int64(sleepSlice) && o.wakeAt != t && o.wake.arm(time.Duration(t-now)) {
			o.wakeAt = t
		}
	}
	o.alarm.set(t+int64(alarmGuard), now, int64(alarmGuard)/2)
}

// sleepUntil waits until arrival due may start: at due, or at most every
// minSleep when arrivals come faster. It reports false when the window
// ended first (an interrupt moves its end to now).
func (o *openLoop) sleepUntil(sl *openSlot, due int64) bool {
	r := o.r
	now := r.now()
	if due <= now {
		return true
	}
	t := max(due, o.lastWake+int64(minSleep))
	sl.buf.Flush() // going idle
	for ; now < t; now = r.now() {
		if due >= r.end.Load() {
			return false
		}
		d := min(t-now, int64(sleepSlice))
		if o.wakeAt != t || d < t-now {
			o.wakeAt = 0
			if !o.wake.arm(time.Duration(d)) {
				time.Sleep(time.Duration(d))
				continue
			}
			if d == t-now {
				o.wakeAt = t
			}
		}
		o.wake.wait()
		o.wakeAt = 0
	}
	o.lastWake = now
	return true
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
	r.tagged(out.Tag, end-began)
}

// arrivals is the run's schedule, taken from by the leader and the
// supervisor. The lock is held for the few nanoseconds of one Next and
// almost never contended (the supervisor takes arrivals only while the
// leader is busy); an atomic counter would not do, since a Poisson
// schedule is a sequence and cannot be indexed.
type arrivals struct {
	mu            sync.Mutex
	sched         Schedule
	next          int64 // the next arrival, ns since the run's start
	counted       int64 // measured arrivals taken, in count mode
	count, mStart int64
	end           *atomic.Int64
	due           atomic.Int64 // next, readable without the lock
	stopped       atomic.Bool  // the schedule has ended
}

func newArrivals(s Schedule, count, mStart int64, end *atomic.Int64) *arrivals {
	a := &arrivals{sched: s, count: count, mStart: mStart, end: end}
	a.next = int64(s.Next())
	a.due.Store(a.next)
	return a
}

// take returns the next arrival; false once the window or the count has
// ended.
func (a *arrivals) take() (int64, bool) { return a.takeDue(math.MaxInt64) }

// takeDue is take for an arrival due by now; false as well when the next
// one is later.
func (a *arrivals) takeDue(now int64) (int64, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	due := a.next
	if due > now {
		return 0, false
	}
	measured := a.count > 0 && due >= a.mStart
	if a.stopped.Load() || due >= a.end.Load() || (measured && a.counted == a.count) {
		a.stopped.Store(true)
		return 0, false
	}
	if measured {
		a.counted++
	}
	a.next = int64(a.sched.Next()) // arrivals are timed from the start, warm-up included
	a.due.Store(a.next)
	return due, true
}

// A wakeTimer is a one-shot timer: armed from any goroutine, waited on by
// one.
type wakeTimer interface {
	arm(d time.Duration) bool
	wait() bool
	close()
}

// sleepTimer is a wakeTimer over a sleep function, for the leader, when
// the run's Sleep replaces the precise sleep.
type sleepTimer struct {
	sleep func(time.Duration)
	at    time.Time
}

func (t *sleepTimer) arm(d time.Duration) bool {
	t.at = time.Now().Add(d)
	return true
}

func (t *sleepTimer) wait() bool {
	if d := time.Until(t.at); d > 0 {
		t.sleep(d)
	}
	return true
}

func (*sleepTimer) close() {}

// goTimer is a wakeTimer over one of Go's timers.
type goTimer struct{ t *time.Timer }

func (g goTimer) arm(d time.Duration) bool {
	g.t.Reset(d)
	return true
}

func (g goTimer) wait() bool {
	<-g.t.C
	return true
}

func (g goTimer) close() { g.t.Stop() }

// alarm is the supervisor's timer. Workers set it; only the supervisor
// waits on it.
type alarm struct {
	mu     sync.Mutex
	at     int64 // when it is set to fire, ns since the run's start; 0: not set
	closed bool
	t      wakeTimer
}

// set makes the alarm fire at at (now is the time now), unless it is set
// already to fire at most tol before at: moving a timer costs a system
// call.
func (a *alarm) set(at, now, tol int64) {
	a.mu.Lock()
	if !a.closed && (a.at == 0 || a.at > at || a.at <= at-tol) {
		a.at = at
		a.t.arm(time.Duration(at - now))
	}
	a.mu.Unlock()
}

// wait waits until the alarm fires; false once it is closed.
func (a *alarm) wait() bool {
	ok := a.t.wait()
	a.mu.Lock()
	a.at = 0
	a.mu.Unlock()
	return ok
}

func (a *alarm) close() {
	a.mu.Lock()
	a.closed = true
	a.t.close()
	a.mu.Unlock()
}
