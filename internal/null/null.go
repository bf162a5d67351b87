// Package null is the calibration target: an operation that does nothing, or
// waits a set time, or freezes on a set schedule. It measures dbmeter itself
// and proves the method: against null, every figure has a known answer.
package null

import (
	"context"
	"fmt"
	"math/rand/v2"
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
}

// Validate reports settings that contradict each other.
func (c Config) Validate() error {
	switch {
	case c.Delay < 0:
		return fmt.Errorf("delay must not be negative, got %s", c.Delay)
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
}

// New makes a target; cfg must be valid.
func New(cfg Config) *Target { return &Target{cfg: cfg, start: time.Now()} }

// NewWorker implements load.NewWorker.
func (t *Target) NewWorker(context.Context, int, *rand.Rand) (load.Worker, error) {
	if t.cfg == (Config{}) {
		return load.WorkerFunc(noop), nil
	}
	return load.WorkerFunc(t.do), nil
}

func noop(context.Context) (load.Outcome, error) { return load.Outcome{}, nil }

func (t *Target) do(ctx context.Context) (load.Outcome, error) {
	if t.cfg.StallEvery > 0 {
		phase := time.Since(t.start) % t.cfg.StallEvery
		if frozen := t.cfg.StallEvery - t.cfg.Stall; phase >= frozen {
			if err := sleep(ctx, t.cfg.StallEvery-phase); err != nil {
				return load.Outcome{}, err
			}
		}
	}
	if t.cfg.Delay > 0 {
		if err := sleep(ctx, t.cfg.Delay); err != nil {
			return load.Outcome{}, err
		}
	}
	return load.Outcome{}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
