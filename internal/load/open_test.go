package load_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
)

// jitterWorker takes a random time around the arrival gap, so that the
// leader is sometimes still busy when the next arrival is due and the
// supervisor hands it over, starts a worker or drops it. It notes each
// operation's intended and actual start.
type jitterWorker struct {
	rng   *rand.Rand
	gap   time.Duration
	mu    *sync.Mutex
	early *int // operations started before their intended time
	heard *int // arrivals the worker was told of (run or skipped)
	// running and most count the operations running at once.
	running, most *int
}

func (w *jitterWorker) Scheduled(t time.Time) {
	w.mu.Lock()
	if time.Now().Before(t) {
		*w.early++
	}
	*w.heard++
	w.mu.Unlock()
}

func (w *jitterWorker) Skipped(time.Time) {
	w.mu.Lock()
	*w.heard++
	w.mu.Unlock()
}

func (w *jitterWorker) Do(context.Context) (load.Outcome, error) {
	w.mu.Lock()
	*w.running++
	*w.most = max(*w.most, *w.running)
	w.mu.Unlock()
	time.Sleep(time.Duration(w.rng.Int64N(int64(3 * w.gap))))
	w.mu.Lock()
	*w.running--
	w.mu.Unlock()
	return load.Outcome{}, nil
}

// Whichever worker leads and however often the supervisor takes over, no
// operation starts before its intended time, every arrival is either run
// (and the worker told of it) or dropped, and at most MaxInFlight run at
// once. Under the fake clock and on the real one with the precise sleep.
func TestOpenLoopEveryArrivalOnceNeverEarly(t *testing.T) {
	for _, tt := range []struct {
		name      string
		fake      bool
		rate      float64
		arrival   load.Arrival
		inFlight  int
		queue     int
		duration  time.Duration
		wantCount int64 // arrivals in the window, for the constant schedule
	}{
		{"fake clock, constant, no queue", true, 1000, load.ArrivalConstant, 3, 0, 2 * time.Second, 2000},
		{"fake clock, poisson, queue", true, 1000, load.ArrivalPoisson, 2, 50, 2 * time.Second, -1},
		{"real clock, constant", false, 2000, load.ArrivalConstant, 4, 0, 300 * time.Millisecond, 600},
		{"real clock, poisson", false, 2000, load.ArrivalPoisson, 4, 100, 300 * time.Millisecond, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			test := func(t *testing.T) {
				var mu sync.Mutex
				var early, heard, running, most int
				nw := func(_ context.Context, _ int, rng *rand.Rand) (load.Worker, error) {
					return &jitterWorker{rng: rng, gap: time.Duration(1e9 / tt.rate), mu: &mu, early: &early, heard: &heard, running: &running, most: &most}, nil
				}
				cfg := load.DefaultConfig()
				cfg.Rate, cfg.Arrival, cfg.MaxInFlight, cfg.Queue = tt.rate, tt.arrival, tt.inFlight, tt.queue
				cfg.Duration, cfg.Warmup, cfg.Interval = tt.duration, 0, 0
				if tt.fake {
					cfg.Sleep = time.Sleep
				}
				res, err := load.Run(context.Background(), cfg, []string{"op"}, nw, nil)
				if err != nil {
					t.Fatal(err)
				}
				op := res.Set[0]
				if early != 0 {
					t.Errorf("%d operations started before their intended time", early)
				}
				if most > tt.inFlight {
					t.Errorf("%d operations ran at once, want at most %d", most, tt.inFlight)
				}
				if int64(heard) != op.Ops {
					t.Errorf("workers told of %d arrivals, %d ran", heard, op.Ops)
				}
				if tt.wantCount > 0 && op.Ops+res.Dropped != tt.wantCount {
					t.Errorf("%d ran + %d dropped = %d, want every one of %d arrivals", op.Ops, res.Dropped, op.Ops+res.Dropped, tt.wantCount)
				}
				if op.Ops == 0 || (tt.fake && tt.queue == 0 && res.Dropped == 0) {
					t.Errorf("%d ran, %d dropped: the test did not load the supervisor", op.Ops, res.Dropped)
				}
			}
			if tt.fake {
				synctest.Test(t, test)
			} else {
				test(t)
			}
		})
	}
}
