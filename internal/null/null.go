// Package null is the calibration target: an operation that does nothing, or
// waits a set time, or freezes on a set schedule, optionally behind a queue. It measures dbmeter itself
// and proves the method: against null, every figure has a known answer.
package null

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
)

// Op is the null target's only operation.
const Op = "noop"

// Config shapes the target. The zero value is an operation that returns at
// once.
type Config struct {
	Delay      time.Duration // each operation takes this long
	StallEvery time.Duration // period of the freeze; 0: never freezes
	Stall      time.Duration // the target is frozen for the last Stall of every StallEvery
	// Concurrency is how many operations execute at once inside the
	// target, as a server's worker pool: later ones wait their turn, in
	// arrival order, and the wait is part of their latency. 0: no limit.
	Concurrency int
}

// Validate reports settings that contradict each other.
func (c Config) Validate() error {
	switch {
	case c.Delay < 0:
		return fmt.Errorf("delay must not be negative, got %s", c.Delay)
	case c.Concurrency < 0:
		return fmt.Errorf("concurrency must not be negative, got %d", c.Concurrency)
	case c.Stall < 0 || c.StallEvery < 0:
		return fmt.Errorf("stall and stall-every must not be negative")
	case (c.Stall > 0) != (c.StallEvery > 0):
		return fmt.Errorf("stall and stall-every go together: give both or neither")
	case c.Stall >= c.StallEvery && c.Stall > 0:
		return fmt.Errorf("stall (%s) must be shorter than stall-every (%s)", c.Stall, c.StallEvery)
	}
	return nil
}

// Target is a null target. Its stall schedule starts when it is made.
type Target struct {
	cfg   Config
	start time.Time
	queue *queue // nil without a concurrency limit
	// sleep, when set, replaces the workers' high-resolution sleep: tests
	// under testing/synctest need Go's own timers.
	sleep func(time.Duration)
}

// WithSleep makes the target's workers wait with sleep.
func (t *Target) WithSleep(sleep func(time.Duration)) *Target {
	t.sleep = sleep
	return t
}

// New makes a target; cfg must be valid.
func New(cfg Config) *Target {
	t := &Target{cfg: cfg, start: time.Now()}
	if cfg.Concurrency > 0 {
		t.queue = &queue{free: make([]time.Time, cfg.Concurrency)}
	}
	return t
}

// NewWorker implements load.NewWorker. A worker that waits sleeps on a
// high-resolution timer of its own: Go's timers wake up to a millisecond
// late on Linux, which would make a 10 ms delay 10–11 ms and the null
// target's capacity anything but its analytical value.
func (t *Target) NewWorker(context.Context, int, *rand.Rand) (load.Worker, error) {
	if t.cfg == (Config{}) {
		return load.WorkerFunc(noop), nil
	}
	if t.sleep != nil {
		return &worker{t: t, sleep: t.sleep, release: func() {}}, nil
	}
	sleep, release := load.PreciseSleeper()
	return &worker{t: t, sleep: sleep, release: release}, nil
}

func noop(context.Context) (load.Outcome, error) { return load.Outcome{}, nil }

type worker struct {
	t       *Target
	sleep   func(time.Duration)
	release func()
}

func (w *worker) Close() error {
	w.release()
	return nil
}

func (w *worker) Do(ctx context.Context) (load.Outcome, error) {
	c := w.t.cfg
	if c.StallEvery > 0 {
		phase := time.Since(w.t.start) % c.StallEvery
		if frozen := c.StallEvery - c.Stall; phase >= frozen {
			if err := w.wait(ctx, c.StallEvery-phase); err != nil {
				return load.Outcome{}, err
			}
		}
	}
	d := c.Delay
	if w.t.queue != nil {
		d = time.Until(w.t.queue.reserve(time.Now(), c.Delay))
	}
	if d > 0 {
		if err := w.wait(ctx, d); err != nil {
			return load.Outcome{}, err
		}
	}
	return load.Outcome{}, nil
}

// queue is a server of len(free) slots serving operations of a fixed
// duration first come, first served. It computes when each operation ends
// instead of letting a slot wait for its worker to wake: a worker that
// wakes late is then late alone, and the late wake-ups of a loaded machine
// do not add up into a slower server. Its capacity is exactly
// len(free)/delay.
type queue struct {
	mu   sync.Mutex
	free []time.Time // when each slot is free again
}

// reserve books the slot free soonest for an operation arriving at now and
// returns when that operation ends.
func (q *queue) reserve(now time.Time, d time.Duration) time.Time {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := 0
	for j, f := range q.free {
		if f.Before(q.free[i]) {
			i = j
		}
	}
	q.free[i] = later(now, q.free[i]).Add(d)
	return q.free[i]
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// wait sleeps d in slices short enough to notice cancellation.
func (w *worker) wait(ctx context.Context, d time.Duration) error {
	const slice = 50 * time.Millisecond
	for end := time.Now().Add(d); ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		left := time.Until(end)
		if left <= 0 {
			return nil
		}
		w.sleep(min(left, slice))
	}
}
