package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/result"
)

// A Watcher sees each interval as it ends (progress lines, live metrics).
// It is called from the runner's control goroutine and must not block.
type Watcher interface {
	Tick(t Tick)
}

// Watchers fans one tick out to several watchers, in order.
type Watchers []Watcher

// Watcher is ws as the run takes it: nil when there are none, which
// spares the run its ticks, and the only one itself.
func (ws Watchers) Watcher() Watcher {
	switch len(ws) {
	case 0:
		return nil
	case 1:
		return ws[0]
	}
	return ws
}

// Tick calls every watcher.
func (ws Watchers) Tick(t Tick) {
	for _, w := range ws {
		w.Tick(t)
	}
}

// Tick is one finished interval.
type Tick struct {
	Interval result.Interval // all operations together
	Seconds  float64         // the interval's length
	End      time.Time       // when the interval ended, on the wall clock
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

// Recorders a run keeps. Workers record into per-worker buffers that flush
// into a shared recorder once per batch, so few recorders suffice; each
// costs a set of 1 ns–1 h histograms (about 270 KB each).
const (
	maxClosedRecorders = 16
	maxOpenRecorders   = 4
)

type runner struct {
	cfg       Config
	nOps      int
	newWorker NewWorker
	classify  func(error) string
	recs      []*hist.Recorder

	base   time.Time
	mStart int64        // start of the measured window, ns since base
	end    atomic.Int64 // end of the window; arrivals and starts at or after it are not measured

	dropped atomic.Int64
	late    atomic.Int64 // of dropped, those SkipLate skipped

	mu struct {
		sync.Mutex
		workers []Worker
		samples map[ErrorSample]string // the first message of each error kind, per operation
		// sealed: the result has its samples; an abandoned operation that
		// fails later must not write into the map the caller now holds.
		sealed bool
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
	nrec := min(cfg.Workers, maxClosedRecorders)
	if cfg.Open() {
		nrec = min(cfg.MaxInFlight, maxOpenRecorders)
	}
	for range nrec {
		r.recs = append(r.recs, hist.NewRecorder(len(ops), r.kept()))
	}
	workers := make([]Worker, 0, cfg.Workers)
	for id := range cfg.Workers {
		w, err := newWorker(ctx, id, r.rand(uint64(id)))
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

// kept says which histograms the run keeps besides latency.
func (r *runner) kept() hist.Kept {
	return hist.Kept{Service: r.cfg.Open(), Lag: r.cfg.Open(), Phases: len(r.cfg.Phases)}
}

func closeAll(ws []Worker) {
	for _, w := range ws {
		if c, ok := w.(io.Closer); ok {
			c.Close()
		}
	}
}

func (r *runner) now() int64 { return int64(time.Since(r.base)) }

// rand returns the random stream id of this run (and shard).
func (r *runner) rand(id uint64) *rand.Rand { return Rand(r.cfg.Seed, r.cfg.Shard.stream(id)) }

// measured says whether an operation meant to start at t falls in the
// measured window: the one rule every figure of a run follows.
func (r *runner) measured(t int64) bool { return t >= r.mStart && t < r.end.Load() }

// tagged hands a measured operation's tag to Config.OnTagged.
func (r *runner) tagged(tag uint64, service int64) {
	if tag != 0 && r.cfg.OnTagged != nil {
		r.cfg.OnTagged(tag, time.Duration(service))
	}
}

// run drives the workers through three phases, each with its own state:
// the measured window (warm-up, intervals, an interrupt), draining (the
// operations still running get the grace period, then are abandoned) and
// finishing (the tail interval and the result). When the window ends,
// and what the process had spent then, is decided once, by the window.
func (r *runner) run(ctx context.Context, workers []Worker, ops []string, watch Watcher) *Result {
	wctx, cancelWorkers := context.WithCancel(ctx)
	defer cancelWorkers()

	res := &Result{
		Mode:      r.cfg.Mode(),
		Ops:       ops,
		Phases:    r.cfg.Phases,
		Set:       hist.NewSet(r.nOps, r.kept()),
		Intervals: make([][]result.Interval, r.nOps),
	}
	var ok bool
	if res.StartOffset, ok = r.begin(ctx); !ok {
		res.Interrupted = true
		return res
	}
	done := make(chan struct{})
	go func() {
		if r.cfg.Open() {
			r.openLoop(wctx, workers)
		} else {
			r.closedLoop(wctx, workers)
		}
		close(done)
	}()

	iv := &intervals{r: r, res: res, watch: watch, tick: hist.NewSet(r.nOps, r.kept()), scratch: hist.New(), last: r.mStart}
	w := r.window(ctx, done, iv)
	if w.interrupted {
		cancelWorkers()
	}
	if msg := r.drain(done, w.interrupted, cancelWorkers); msg != "" {
		res.Warnings = append(res.Warnings, msg)
	}
	r.finish(res, iv, w)
	return res
}

// begin sets the run's start: now, or Config.StartAt, the common start on
// this process's monotonic clock. A run that comes after it (the second of
// several runs of one command) starts now rather than owing every arrival
// since then, and says how late it is. It reports false when ctx ended
// while it waited.
func (r *runner) begin(ctx context.Context) (late time.Duration, ok bool) {
	r.base = time.Now()
	if !r.cfg.StartAt.IsZero() {
		if at := r.base.Add(r.cfg.StartAt.Sub(r.base)); at.After(r.base) {
			r.base = at
			if !sleepUntilTime(ctx, r.base) {
				return 0, false
			}
			late = time.Since(r.base)
		} else {
			late = r.base.Sub(at)
		}
	}
	r.mStart = int64(r.cfg.Warmup)
	end := int64(math.MaxInt64)
	if r.cfg.Duration > 0 {
		end = r.mStart + int64(r.cfg.Duration)
	}
	r.end.Store(end)
	return late, true
}

// windowEnd is how the measured window ended.
type windowEnd struct {
	interrupted bool
	// stop is the end of the window, ns since the run's start: the
	// configured end, the interrupt, or (count mode) when the workers
	// finished.
	stop int64
	// cost is what the process spent during the window.
	cost costSample
}

// window waits out the warm-up and the measured window, emitting an
// interval at each tick, until the window's end, an interrupt (ctx), or
// the workers' end (done).
func (r *runner) window(ctx context.Context, done <-chan struct{}, iv *intervals) windowEnd {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	// wait reports whether it waited until t; false on an interrupt or the
	// workers' end.
	wait := func(t int64) bool {
		timer.Reset(time.Duration(t - r.now()))
		defer timer.Stop()
		select {
		case <-timer.C:
			return true
		case <-ctx.Done():
		case <-done:
		}
		return false
	}
	end := r.end.Load()
	if r.mStart > 0 && !wait(r.mStart) && ctx.Err() != nil { // warm-up: workers run, nothing is recorded
		r.end.Store(r.now())
		return windowEnd{interrupted: true, stop: r.mStart}
	}
	costStart := sampleCost()
	if r.cfg.OnMeasure != nil {
		r.cfg.OnMeasure()
	}
	for {
		next := end
		if r.cfg.Interval > 0 {
			next = min(end, iv.last+int64(r.cfg.Interval))
		}
		if next == math.MaxInt64 { // count mode without intervals
			next = r.now() + int64(time.Hour)
		}
		if !wait(next) {
			break
		}
		if next >= end {
			return windowEnd{stop: end, cost: sampleCost().sub(costStart)}
		}
		iv.emit(next)
	}
	now, cost := r.now(), sampleCost().sub(costStart)
	if ctx.Err() != nil {
		r.end.Store(now)
		return windowEnd{interrupted: true, stop: now, cost: cost}
	}
	if r.cfg.Duration > 0 {
		now = end // the workers ended early
	}
	return windowEnd{stop: now, cost: cost}
}

// drain gives the operations still running the grace period (none after
// an interrupt: they were cancelled already), then cancels them and
// waits a little more. It returns a warning when some never returned.
func (r *runner) drain(done <-chan struct{}, interrupted bool, cancelWorkers func()) string {
	grace, abandon := r.cfg.Grace, abandonAfter
	if interrupted {
		grace, abandon = 0, abandonInterrupted
	}
	select {
	case <-done:
		return ""
	case <-time.After(grace):
	}
	cancelWorkers()
	select {
	case <-done:
		return ""
	case <-time.After(abandon):
		return fmt.Sprintf("operations still running %s after they were cancelled were abandoned: the target is stuck, and their outcome is not counted", abandon)
	}
}

// finish emits the tail interval (the operations that ended after the
// last tick) and fills in the result.
func (r *runner) finish(res *Result, iv *intervals, w windowEnd) {
	elapsed := max(w.stop-r.mStart, 0)
	iv.emit(max(r.mStart+elapsed, iv.last))
	if r.cfg.Interval == 0 {
		res.Total, res.Intervals = nil, make([][]result.Interval, r.nOps)
	}
	res.Elapsed = time.Duration(elapsed)
	res.Dropped = r.dropped.Load()
	res.Interrupted = w.interrupted
	r.mu.Lock()
	res.ErrorSamples, r.mu.sealed = r.mu.samples, true
	r.mu.Unlock()
	res.Cost = w.cost
	res.CPUs = usableCPUs()
	if !r.cfg.InProcessTarget {
		if u := res.CPUUtil(); u > 0.8 {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"dbmeter used %.0f%% of the CPU it had: the client may have been the bottleneck, so these numbers understate the target", u*100))
		}
	}
	// A drop is either an arrival that found every slot busy or, with
	// SkipLate, one that started too late: the user tunes a different
	// knob for each.
	late := r.late.Load()
	if busy := res.Dropped - late; busy > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%d arrivals were dropped: %d operations in flight could not keep up with %g/s", busy, r.cfg.MaxInFlight, r.cfg.Rate))
	}
	if late > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%d arrivals were skipped by the latency limit: they could not start within %s of their scheduled time", late, r.cfg.SkipLate))
	}
}

// intervals turns the recorders' contents into intervals as they end.
type intervals struct {
	r           *runner
	res         *Result
	watch       Watcher
	tick        hist.Set
	scratch     *hdrhistogram.Histogram
	lastDropped int64
	last        int64 // when the last interval ended, ns since the run's start
}

// emit ends the interval at at: it drains the recorders into it, appends
// it to the result and shows it to the watcher.
func (iv *intervals) emit(at int64) {
	r, res := iv.r, iv.res
	for _, rec := range r.recs {
		rec.Drain(iv.tick)
	}
	dropped := r.dropped.Load()
	ts := float64(at-r.mStart) / 1e9
	iv.scratch.Reset()
	total := result.Interval{TS: ts, Dropped: dropped - iv.lastDropped}
	for i := range iv.tick {
		op := &iv.tick[i]
		iv.scratch.Merge(op.Latency)
		total.Ops += op.Ops
		total.Errors += op.Errors
		res.Intervals[i] = append(res.Intervals[i], intervalOf(ts, op))
	}
	total.P50, total.P99 = iv.scratch.ValueAtQuantile(50), iv.scratch.ValueAtQuantile(99)
	res.Total = append(res.Total, total)
	if iv.watch != nil {
		iv.watch.Tick(Tick{Interval: total, Ops: iv.tick, Seconds: float64(at-iv.last) / 1e9, End: r.base.Add(time.Duration(at))})
	}
	res.Set.Merge(iv.tick)
	iv.tick.Reset()
	iv.lastDropped, iv.last = dropped, at
}

func intervalOf(ts float64, op *hist.Op) result.Interval {
	return result.Interval{
		TS: ts, Ops: op.Ops, Errors: op.Errors,
		P50: op.Latency.ValueAtQuantile(50), P99: op.Latency.ValueAtQuantile(99),
	}
}

// recordError counts a measured failed operation and keeps the first
// message of its kind: "3 errors of kind other" alone tells a user nothing
// about what to fix. The message is kept whole; the sink masks the DSN's
// secrets in it and then shortens it.
func (r *runner) recordError(rec *hist.Recorder, op uint8, kind string, err error) {
	rec.RecordError(op, kind)
	r.mu.Lock()
	defer r.mu.Unlock()
	key := ErrorSample{Op: op, Kind: kind}
	if _, ok := r.mu.samples[key]; ok || r.mu.sealed {
		return
	}
	if r.mu.samples == nil {
		r.mu.samples = map[ErrorSample]string{}
	}
	r.mu.samples[key] = redact.Line(err)
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

// Backoff bounds for a worker whose target refuses connections: without a
// pause it would spin through tens of thousands of instant failures a
// second, burning the CPU the target needs to come back.
const (
	minBackoff = time.Millisecond
	maxBackoff = 100 * time.Millisecond
)

// nextBackoff is the pause after an operation of error kind kind (""
// for success) that followed a pause of prev.
func nextBackoff(prev time.Duration, kind string) time.Duration {
	switch kind {
	case "":
		return 0
	case KindConnection:
		return min(max(2*prev, minBackoff), maxBackoff)
	}
	return prev
}

// sleepUntilTime waits until t; false when ctx ended first.
func sleepUntilTime(ctx context.Context, t time.Time) bool {
	if d := time.Until(t); d > 0 {
		sleepCtx(ctx, d)
	}
	return ctx.Err() == nil
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
