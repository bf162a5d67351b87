package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
)

// A Watcher sees each interval as it ends (progress lines, live metrics).
// It is called from the runner's control goroutine and must not block.
type Watcher interface {
	Tick(t Tick)
}

// Tick is one finished interval.
type Tick struct {
	Interval result.Interval // all operations together
	Seconds  float64         // the interval's length
	// Ops holds this interval's histograms, one per operation. It is only
	// valid during the call.
	Ops hist.Set
}

// How long the runner waits for operations that ignore cancellation (an
// embedded engine cannot be interrupted; a stuck one never returns) before
// it gives up on them and reports what it measured. An interrupt must stop
// the run within about a second.
const (
	abandonAfter       = 5 * time.Second
	abandonInterrupted = 800 * time.Millisecond
)

// maxShards bounds the recorders a run keeps. Workers share a recorder when
// there are more of them (a slow target with hundreds of connections does
// not need hundreds of histograms); a fast in-process target has few workers
// and then each gets its own.
const maxShards = 16

type runner struct {
	cfg       Config
	nOps      int
	newWorker NewWorker
	classify  func(error) string
	recs      []*hist.Recorder

	base   time.Time
	mStart int64        // start of the measured window, ns since base
	end    atomic.Int64 // end of the window; arrivals and starts at or after it are not measured

	dropped  atomic.Int64
	inFlight atomic.Int64 // open loop: worker goroutines alive

	mu struct {
		sync.Mutex
		workers []Worker
	}
}

// Run drives workers made by newWorker until cfg's limit is reached or ctx is
// cancelled, and returns what it measured. ops names the values of
// Outcome.Op. A cancelled ctx is not an error: the result says Interrupted.
// An error means the run could not start.
func Run(ctx context.Context, cfg Config, ops []string, newWorker NewWorker, watch Watcher) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(ops) == 0 || len(ops) > math.MaxUint8+1 {
		return nil, fmt.Errorf("a workload needs 1 to 256 operations, got %d", len(ops))
	}
	r := &runner{cfg: cfg, nOps: len(ops), newWorker: newWorker, classify: cfg.Classify}
	if r.classify == nil {
		r.classify = Classify
	}
	shards := min(cfg.Workers, maxShards)
	if cfg.Open() {
		shards = min(cfg.MaxInFlight, maxShards)
	}
	for range shards {
		r.recs = append(r.recs, hist.NewRecorder(len(ops), cfg.Open()))
	}
	workers := make([]Worker, 0, cfg.Workers)
	for id := range cfg.Workers {
		w, err := newWorker(ctx, id, Rand(cfg.Seed, uint64(id)))
		if err != nil {
			closeAll(workers)
			return nil, fmt.Errorf("start worker %d: %w", id, err)
		}
		workers = append(workers, w)
	}
	r.mu.workers = workers
	defer func() {
		r.mu.Lock()
		ws := r.mu.workers
		r.mu.Unlock()
		closeAll(ws)
	}()
	return r.run(ctx, workers, ops, watch), nil
}

func closeAll(ws []Worker) {
	for _, w := range ws {
		if c, ok := w.(io.Closer); ok {
			c.Close()
		}
	}
}

func (r *runner) now() int64 { return int64(time.Since(r.base)) }

func (r *runner) run(ctx context.Context, workers []Worker, ops []string, watch Watcher) *Result {
	wctx, cancelWorkers := context.WithCancel(ctx)
	defer cancelWorkers()

	r.base = time.Now()
	r.mStart = int64(r.cfg.Warmup)
	end := int64(math.MaxInt64)
	if r.cfg.Duration > 0 {
		end = r.mStart + int64(r.cfg.Duration)
	}
	r.end.Store(end)

	done := make(chan struct{})
	go func() {
		if r.cfg.Open() {
			r.openLoop(wctx, workers)
		} else {
			r.closedLoop(wctx, workers)
		}
		close(done)
	}()

	res := &Result{
		Mode:      r.cfg.Mode(),
		Ops:       ops,
		Set:       hist.NewSet(r.nOps, r.cfg.Open()),
		Intervals: make([][]result.Interval, r.nOps),
	}
	tick := hist.NewSet(r.nOps, r.cfg.Open())
	scratch := hist.New()
	var lastDropped int64
	var lastTick int64 = r.mStart
	emit := func(at int64) {
		for _, rec := range r.recs {
			rec.Drain(tick)
		}
		dropped := r.dropped.Load()
		ts := float64(at-r.mStart) / 1e9
		scratch.Reset()
		total := result.Interval{TS: ts, Dropped: dropped - lastDropped}
		for i := range tick {
			op := &tick[i]
			scratch.Merge(op.Latency)
			total.Ops += op.Ops
			total.Errors += op.Errors
			res.Intervals[i] = append(res.Intervals[i], intervalOf(ts, op))
		}
		total.P50, total.P99 = scratch.ValueAtQuantile(50), scratch.ValueAtQuantile(99)
		res.Total = append(res.Total, total)
		if watch != nil {
			watch.Tick(Tick{Interval: total, Ops: tick, Seconds: float64(at-lastTick) / 1e9})
		}
		res.Set.Merge(tick)
		tick.Reset()
		lastDropped, lastTick = dropped, at
	}

	timer := time.NewTimer(0)
	<-timer.C
	wait := func(until int64) (fired bool) {
		timer.Reset(time.Duration(until - r.now()))
		select {
		case <-timer.C:
			return true
		case <-ctx.Done():
		case <-done:
		}
		timer.Stop()
		return false
	}

	// Warm-up: workers run, nothing is recorded.
	interrupted := false
	if r.mStart > 0 && !wait(r.mStart) {
		interrupted = ctx.Err() != nil
	}
	costStart := sampleCost()
	for !interrupted {
		next := end
		if r.cfg.Interval > 0 {
			next = min(end, lastTick+int64(r.cfg.Interval))
		}
		if next == math.MaxInt64 { // count mode without intervals
			next = r.now() + int64(time.Hour)
		}
		if !wait(next) {
			interrupted = ctx.Err() != nil
			break
		}
		if next >= end {
			break
		}
		emit(next)
	}
	stopAt := r.now()
	if interrupted {
		r.end.Store(stopAt)
		cancelWorkers()
	}
	costEnd := sampleCost()
	grace := r.cfg.Grace
	if interrupted {
		grace = 0 // the workers were cancelled already
	}
	select {
	case <-done:
	case <-time.After(grace):
		cancelWorkers()
		wait := abandonAfter
		if interrupted {
			wait = abandonInterrupted
		}
		select {
		case <-done:
		case <-time.After(wait):
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"operations still running %s after they were cancelled were abandoned: the target is stuck, and their outcome is not counted", wait))
		}
	}
	if r.cfg.Count > 0 && !interrupted {
		stopAt = r.now()
		costEnd = sampleCost()
	}
	if r.cfg.Duration > 0 && !interrupted {
		stopAt = end
	}
	elapsed := max(stopAt-r.mStart, 0)
	emit(max(r.mStart+elapsed, lastTick)) // the tail: operations that ended after the last tick
	if r.cfg.Interval == 0 {
		res.Total, res.Intervals = nil, make([][]result.Interval, r.nOps)
	}

	res.Elapsed = time.Duration(elapsed)
	res.Dropped = r.dropped.Load()
	res.Interrupted = interrupted
	res.Cost = costEnd.sub(costStart)
	res.CPUs = usableCPUs()
	if !r.cfg.InProcessTarget {
		if u := res.CPUUtil(); u > 0.8 {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"dbmeter used %.0f%% of the CPU it had: the client may have been the bottleneck, so these numbers understate the target", u*100))
		}
	}
	if res.Dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%d arrivals were dropped: %d operations in flight could not keep up with %g/s", res.Dropped, r.cfg.MaxInFlight, r.cfg.Rate))
	}
	return res
}

func intervalOf(ts float64, op *hist.Op) result.Interval {
	return result.Interval{
		TS: ts, Ops: op.Ops, Errors: op.Errors,
		P50: op.Latency.ValueAtQuantile(50), P99: op.Latency.ValueAtQuantile(99),
	}
}

// record files one finished operation. start is when it was meant to start
// (open loop) or did start (closed loop); began is when it actually started.
func (r *runner) record(ctx context.Context, rec *hist.Recorder, out Outcome, err error, start, began, finished int64) {
	r.checkOp(out.Op)
	if err != nil {
		rec.RecordError(out.Op, r.kindOf(ctx, err))
		return
	}
	rec.Record(out.Op, time.Duration(finished-start), time.Duration(finished-began), out.Rows, out.Bytes)
}

// checkOp panics on an operation index the workload does not have: a
// programming error in the worker, not a measurement, so the workers'
// recovery lets it through (rethrowOwn).
func (r *runner) checkOp(op uint8) {
	if int(op) >= r.nOps {
		panic(badOpError(fmt.Sprintf("load: worker returned operation %d, workload has %d", op, r.nOps)))
	}
}

type badOpError string

// rethrowOwn re-panics dbmeter's own programming errors, which must not be
// counted as the target's failures.
func (r *runner) rethrowOwn(p any) {
	if _, ours := p.(badOpError); ours {
		panic(p)
	}
}

// kindOf classifies an operation error; an operation the runner itself
// cancelled is unfinished, whatever the worker made of the cancellation.
func (r *runner) kindOf(ctx context.Context, err error) string {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return KindUnfinished
	}
	return r.classify(err)
}

// Backoff bounds for a closed-loop worker whose target refuses connections:
// without a pause it would spin through tens of thousands of instant
// failures a second, burning the CPU the target needs to come back.
const (
	minBackoff = time.Millisecond
	maxBackoff = 100 * time.Millisecond
)

func (r *runner) closedLoop(ctx context.Context, workers []Worker) {
	var wg sync.WaitGroup
	n := int64(len(workers))
	for i, w := range workers {
		quota := int64(0)
		if r.cfg.Count > 0 {
			quota = r.cfg.Count / n
			if int64(i) < r.cfg.Count%n {
				quota++
			}
		}
		rec := r.recs[i%len(r.recs)]
		wg.Go(func() { r.closedWorker(ctx, w, rec, quota) })
	}
	wg.Wait()
}

// closedWorker runs one closed-loop worker. A panic inside Do (an engine
// that panics on a full disk) is counted as an error of kind KindPanic and
// the worker goes on; recovering once per panic rather than once per
// operation keeps a defer off the per-operation path.
func (r *runner) closedWorker(ctx context.Context, w Worker, rec *hist.Recorder, quota int64) {
	buf := hist.NewBuffer(rec)
	defer buf.Flush()
	// A fault in an engine's mapped memory becomes a panic on this goroutine
	// instead of killing the process.
	debug.SetPanicOnFault(true)
	st := closedState{start: r.now(), quota: quota}
	for r.closedOps(ctx, w, buf, rec, &st) {
	}
}

// closedState is a closed-loop worker's position, kept across a recovered
// panic.
type closedState struct {
	start   int64 // when the next operation starts
	quota   int64 // measured operations left; 0: no limit
	backoff time.Duration
}

// countQuota counts one measured operation and reports whether the quota is
// used up.
func (st *closedState) countQuota() bool {
	if st.quota > 0 {
		st.quota--
		return st.quota == 0
	}
	return false
}

// closedOps reads the clock once per operation: the end of one operation is
// the start of the next. It reports whether it stopped on a panic (counted)
// and the worker should go on.
func (r *runner) closedOps(ctx context.Context, w Worker, buf *hist.Buffer, rec *hist.Recorder, st *closedState) (panicked bool) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		r.rethrowOwn(p)
		done := false
		if st.start >= r.mStart {
			rec.RecordError(0, KindPanic)
			done = st.countQuota()
		}
		st.start = r.now()
		panicked = !done
	}()
	for st.start < r.end.Load() {
		out, err := w.Do(ctx)
		end := r.now()
		var kind string
		if err != nil {
			kind = r.kindOf(ctx, err)
		}
		if st.start >= r.mStart {
			r.checkOp(out.Op)
			if err == nil {
				buf.Record(end, out.Op, time.Duration(end-st.start), out.Rows, out.Bytes)
			} else {
				rec.RecordError(out.Op, kind)
			}
			if st.countQuota() {
				return false
			}
		}
		switch {
		case err == nil:
			st.backoff = 0
		case kind == KindConnection:
			st.backoff = min(max(2*st.backoff, minBackoff), maxBackoff)
			sleepCtx(ctx, st.backoff)
			end = r.now() // the pause is not the next operation's latency
		}
		st.start = end
	}
	return false
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// openLoop dispatches arrivals through an unbuffered channel: a send succeeds
// only when a worker is idle and waiting. Otherwise a new worker is started,
// up to MaxInFlight; beyond that the arrival waits in the backlog if there is
// room (Queue), and is dropped and counted if not.
func (r *runner) openLoop(ctx context.Context, workers []Worker) {
	arrivals := make(chan int64)
	backlog := make(chan int64, r.cfg.Queue)
	var wg sync.WaitGroup
	for i, w := range workers {
		rec := r.recs[i%len(r.recs)]
		r.inFlight.Add(1)
		wg.Go(func() { r.openWorker(ctx, w, rec, arrivals, backlog, -1) })
	}
	nextID := len(workers)
	spawn := func(due int64) {
		id := nextID
		nextID++
		r.inFlight.Add(1)
		rec := r.recs[id%len(r.recs)]
		wg.Go(func() {
			w, err := r.newWorker(ctx, id, Rand(r.cfg.Seed, uint64(id)))
			if err != nil {
				r.inFlight.Add(-1)
				if due >= r.mStart {
					rec.RecordError(0, r.classify(err))
				}
				return
			}
			r.mu.Lock()
			r.mu.workers = append(r.mu.workers, w)
			r.mu.Unlock()
			r.openWorker(ctx, w, rec, arrivals, backlog, due)
		})
	}

	sleep := r.cfg.Sleep
	if sleep == nil {
		var release func()
		sleep, release = preciseSleeper()
		defer release()
	}
	sched := NewSchedule(r.cfg.Arrival, r.cfg.Rate, Rand(r.cfg.Seed, math.MaxUint64))
	var measured int64
	maxInFlight := int64(r.cfg.MaxInFlight)
	for {
		due := int64(sched.Next()) // arrivals are timed from the start, warm-up included
		if due >= r.end.Load() {
			break
		}
		if r.cfg.Count > 0 && due >= r.mStart {
			if measured == r.cfg.Count {
				break
			}
			measured++
		}
		if !r.sleepUntil(sleep, due) {
			break
		}
		select {
		case arrivals <- due:
			continue
		default:
		}
		if r.inFlight.Load() < maxInFlight {
			spawn(due)
			continue
		}
		select {
		case backlog <- due:
		default:
			if due >= r.mStart {
				r.dropped.Add(1)
			}
		}
	}
	close(arrivals)
	close(backlog)
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

// openWorker serves arrivals, oldest backlog first; first, when not -1, is
// an arrival to serve before taking more. Panics are handled as in
// closedWorker.
func (r *runner) openWorker(ctx context.Context, w Worker, rec *hist.Recorder, arrivals, backlog <-chan int64, first int64) {
	debug.SetPanicOnFault(true)
	due := first
	for r.serve(ctx, w, rec, arrivals, backlog, &due) {
	}
}

// serve runs arrivals until both channels are closed. *due is the arrival in
// hand (-1: none), so that a panic is counted against it. It reports whether
// it stopped on a panic and the worker should go on.
func (r *runner) serve(ctx context.Context, w Worker, rec *hist.Recorder, arrivals, backlog <-chan int64, due *int64) (panicked bool) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		r.rethrowOwn(p)
		if *due >= r.mStart && *due < r.end.Load() {
			rec.RecordError(0, KindPanic)
		}
		*due = -1
		panicked = true
	}()
	if *due >= 0 {
		r.openOp(ctx, w, rec, *due)
		*due = -1
	}
	for {
		var ok bool
		select {
		case *due, ok = <-backlog:
		default:
			select {
			case *due, ok = <-backlog:
			case *due, ok = <-arrivals:
			}
		}
		if !ok {
			// One channel is closed: both are, and only backlog may hold more.
			*due = -1
			for d := range backlog {
				*due = d
				r.openOp(ctx, w, rec, d)
				*due = -1
			}
			return false
		}
		r.openOp(ctx, w, rec, *due)
		*due = -1
	}
}

func (r *runner) openOp(ctx context.Context, w Worker, rec *hist.Recorder, due int64) {
	began := r.now()
	if r.cfg.SkipLate > 0 && began-due > int64(r.cfg.SkipLate) {
		if due >= r.mStart && due < r.end.Load() {
			r.dropped.Add(1)
		}
		return
	}
	out, err := w.Do(ctx)
	end := r.now()
	if due >= r.mStart && due < r.end.Load() {
		r.record(ctx, rec, out, err, due, began, end)
	}
}
