package load

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/hist"
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
	buf := hist.NewBuffer(rec, hist.ClosedBuffer)
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
			r.recordError(rec, 0, KindPanic, fmt.Errorf("panic: %v", p))
			done = st.countQuota()
		}
		st.start = r.now()
		panicked = !done
	}()
	// A cancelled run (interrupt, or the grace period over) stops at once:
	// an operation that fails instantly on the dead context must not spin.
	for st.start < r.end.Load() && ctx.Err() == nil {
		out, err := w.Do(ctx)
		end := r.now()
		var kind string
		if err != nil {
			kind = r.kindOf(ctx, err)
		}
		if st.start >= r.mStart {
			r.checkOp(out.Op)
			if err == nil {
				buf.Record(end, out.Op, &hist.Sample{Latency: end - st.start, Rows: out.Rows, Bytes: out.Bytes, Phases: out.Phases})
				r.tagged(out.Tag, end-st.start)
			} else {
				r.recordError(rec, out.Op, kind, err)
			}
			if st.countQuota() {
				return false
			}
		}
		if st.backoff = nextBackoff(st.backoff, kind); kind == KindConnection {
			sleepCtx(ctx, st.backoff)
			end = r.now() // the pause is not the next operation's latency
		}
		st.start = end
	}
	return false
}
