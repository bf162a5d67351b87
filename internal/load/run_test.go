package load_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
)

// sleeper is a target whose every operation takes d.
func sleeper(d time.Duration) load.NewWorker {
	return func(context.Context, int, *rand.Rand) (load.Worker, error) {
		return load.WorkerFunc(func(ctx context.Context) (load.Outcome, error) {
			select {
			case <-time.After(d):
				return load.Outcome{Rows: 2, Bytes: 100}, nil
			case <-ctx.Done():
				return load.Outcome{}, ctx.Err()
			}
		}), nil
	}
}

// staller is an instant target that freezes during [at, at+stall) since the
// run began; every worker shares the freeze.
func staller(start time.Time, at, stall time.Duration) load.NewWorker {
	return func(context.Context, int, *rand.Rand) (load.Worker, error) {
		return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
			if now := time.Since(start); now >= at && now < at+stall {
				time.Sleep(at + stall - now)
			}
			return load.Outcome{}, nil
		}), nil
	}
}

func config(mut func(*load.Config)) load.Config {
	cfg := load.DefaultConfig()
	cfg.Warmup, cfg.Interval, cfg.Grace = 0, time.Second, time.Second
	cfg.Sleep = time.Sleep // the fake clock of synctest moves only for Go's timers
	mut(&cfg)
	return cfg
}

func run(t *testing.T, ctx context.Context, cfg load.Config, nw load.NewWorker) *load.Result {
	t.Helper()
	res, err := load.Run(ctx, cfg, []string{"op"}, nw, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func TestRunCounts(t *testing.T) {
	tests := []struct {
		name       string
		cfg        load.Config
		target     time.Duration
		wantOps    int64
		wantP50    time.Duration
		wantPeriod int // intervals
	}{
		{"closed loop: 10ms ops for 1s is 100 ops", config(func(c *load.Config) { c.Duration = time.Second }), 10 * time.Millisecond, 100, 10 * time.Millisecond, 1},
		{"closed loop: warm-up is not measured", config(func(c *load.Config) { c.Duration, c.Warmup = time.Second, time.Second }), 10 * time.Millisecond, 100, 10 * time.Millisecond, 1},
		{"closed loop: 4 workers share the work", config(func(c *load.Config) { c.Duration, c.Workers = 2*time.Second, 4 }), 10 * time.Millisecond, 800, 10 * time.Millisecond, 2},
		{"closed loop: count split among workers", config(func(c *load.Config) { c.Duration, c.Count, c.Workers = 0, 1000, 3 }), time.Millisecond, 1000, time.Millisecond, 0},
		{"open loop: 100/s for 5s is 500 arrivals", config(func(c *load.Config) { c.Duration, c.Rate = 5*time.Second, 100 }), time.Millisecond, 500, time.Millisecond, 5},
		{"open loop: poisson 100/s for 5s", config(func(c *load.Config) {
			c.Duration, c.Rate, c.Arrival = 5*time.Second, 100, load.ArrivalPoisson
		}), time.Millisecond, -1, time.Millisecond, 5},
		{"open loop: count", config(func(c *load.Config) { c.Duration, c.Count, c.Rate = 0, 250, 100 }), time.Millisecond, 250, time.Millisecond, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				res := run(t, t.Context(), tt.cfg, sleeper(tt.target))
				op := res.Set[0]
				if tt.wantOps >= 0 && op.Ops != tt.wantOps {
					t.Errorf("ops = %d, want %d", op.Ops, tt.wantOps)
				}
				if tt.wantOps < 0 && (op.Ops < 400 || op.Ops > 600) {
					t.Errorf("ops = %d, want about 500", op.Ops)
				}
				if got := time.Duration(op.Latency.ValueAtQuantile(50)); got < tt.wantP50 || got > tt.wantP50*101/100 {
					t.Errorf("p50 = %v, want %v", got, tt.wantP50)
				}
				if op.Rows != 2*op.Ops || op.Bytes != 100*op.Ops {
					t.Errorf("rows, bytes = %d, %d; want %d, %d", op.Rows, op.Bytes, 2*op.Ops, 100*op.Ops)
				}
				if op.Errors != 0 || res.Dropped != 0 {
					t.Errorf("errors %d, dropped %d; want none", op.Errors, res.Dropped)
				}
				if tt.wantPeriod > 0 && len(res.Total) < tt.wantPeriod {
					t.Errorf("%d intervals, want at least %d", len(res.Total), tt.wantPeriod)
				}
				var sum int64
				for _, iv := range res.Total {
					sum += iv.Ops
				}
				if len(res.Total) > 0 && sum != op.Ops {
					t.Errorf("intervals add up to %d ops, want %d", sum, op.Ops)
				}
			})
		})
	}
}

// An open-loop run must time each operation from its intended start: a
// 200 ms freeze at 100/s delays 20 arrivals by 200, 190, … 10 ms, and that
// must show in p99 even though each operation, once started, is instant.
func TestOpenLoopIntendedStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := config(func(c *load.Config) {
			c.Duration, c.Rate, c.Workers, c.MaxInFlight, c.Queue = 5*time.Second, 100, 1, 1, 1000
		})
		res := run(t, t.Context(), cfg, staller(time.Now(), time.Second, 200*time.Millisecond))
		op := res.Set[0]
		if op.Ops != 500 {
			t.Fatalf("ops = %d, want 500", op.Ops)
		}
		// Ranked, the 495th of 500 latencies is the 15th of 10, 20, … 200 ms:
		// p99 is 150 ms (stall − 1% × run = 200 − 50 ms).
		if got := time.Duration(op.Latency.ValueAtQuantile(99)); got < 149*time.Millisecond || got > 151*time.Millisecond {
			t.Errorf("latency p99 = %v, want 150ms", got)
		}
		if got := time.Duration(op.Latency.Max()); got < 199*time.Millisecond || got > 201*time.Millisecond {
			t.Errorf("latency max = %v, want 200ms", got)
		}
		// Service time from the actual start hides the freeze but for the one
		// operation that was running when it began.
		if got := time.Duration(op.Service.ValueAtQuantile(99)); got > time.Millisecond {
			t.Errorf("service p99 = %v, want under 1ms", got)
		}
	})
}

// When MaxInFlight operations are running and there is no queue, arrivals
// are dropped and counted, never silently skipped.
func TestOpenLoopDrops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := config(func(c *load.Config) {
			c.Duration, c.Rate, c.Workers, c.MaxInFlight, c.Grace = 5*time.Second, 100, 2, 10, 2*time.Second
		})
		res := run(t, t.Context(), cfg, sleeper(time.Second))
		op := res.Set[0]
		if res.Dropped == 0 {
			t.Fatalf("no drops; want most of 500 arrivals dropped")
		}
		if got := op.Ops + op.Errors + res.Dropped; got != 500 {
			t.Errorf("ops %d + errors %d + dropped %d = %d, want every one of 500 arrivals accounted for", op.Ops, op.Errors, res.Dropped, got)
		}
		if len(res.Warnings) == 0 {
			t.Errorf("no warning about drops")
		}
	})
}

// Workers beyond the initial ones are started when all are busy.
func TestOpenLoopStartsWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var made atomic.Int64
		nw := func(ctx context.Context, id int, rng *rand.Rand) (load.Worker, error) {
			made.Add(1)
			return sleeper(100*time.Millisecond)(ctx, id, rng)
		}
		cfg := config(func(c *load.Config) { c.Duration, c.Rate, c.Workers, c.MaxInFlight = time.Second, 100, 1, 100 })
		res := run(t, t.Context(), cfg, nw)
		if res.Set[0].Ops != 100 || res.Dropped != 0 {
			t.Errorf("ops %d dropped %d, want 100 and 0", res.Set[0].Ops, res.Dropped)
		}
		if n := made.Load(); n < 10 || n > 12 {
			t.Errorf("made %d workers, want about 10 (100/s × 100ms)", n)
		}
	})
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestErrorsAreCountedByKind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		errs := []error{
			nil,
			timeoutErr{},
			fmt.Errorf("dial tcp://u:hunter2@h: %w", syscall.ECONNREFUSED),
			load.WithKind(errors.New("syntax error"), load.KindServer),
			nil, // replaced by a numbered error: the sample is the first one
		}
		nw := func(context.Context, int, *rand.Rand) (load.Worker, error) {
			i := 0
			return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
				time.Sleep(time.Millisecond)
				err := errs[i%len(errs)]
				if i%len(errs) == len(errs)-1 {
					err = fmt.Errorf("something else #%d", i)
				}
				i++
				return load.Outcome{}, err
			}), nil
		}
		res := run(t, t.Context(), config(func(c *load.Config) { c.Duration, c.Count = 0, 500 }), nw)
		op := res.Set[0]
		want := map[string]int64{load.KindTimeout: 100, load.KindConnection: 100, load.KindServer: 100, load.KindOther: 100}
		for k, n := range want {
			if op.Kinds[k] != n {
				t.Errorf("kind %s = %d, want %d (all: %v)", k, op.Kinds[k], n, op.Kinds)
			}
		}
		if op.Ops != 100 || op.Errors != 400 || op.Latency.TotalCount() != 100 {
			t.Errorf("ops %d errors %d histogram %d; want 100, 400, 100", op.Ops, op.Errors, op.Latency.TotalCount())
		}
		samples := map[string]string{
			load.KindTimeout:    "i/o timeout",
			load.KindConnection: "dial tcp://u:xxxxx@h: connection refused",
			load.KindServer:     "syntax error",
			load.KindOther:      "something else #4",
		}
		if got := res.SamplesOf(0); !maps.Equal(got, samples) || !maps.Equal(res.SamplesOf(-1), samples) {
			t.Errorf("error samples %q, want the first message of each kind, secrets masked: %q", got, samples)
		}
	})
}

func TestInterruptKeepsWhatWasMeasured(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(500*time.Millisecond, cancel)
		res := run(t, ctx, config(func(c *load.Config) { c.Duration = 10 * time.Second }), sleeper(10*time.Millisecond))
		if !res.Interrupted {
			t.Errorf("Interrupted = false, want true")
		}
		if res.Elapsed != 500*time.Millisecond {
			t.Errorf("elapsed = %v, want 500ms", res.Elapsed)
		}
		if ops := res.Set[0].Ops; ops < 49 || ops > 50 {
			t.Errorf("ops = %d, want 50", ops)
		}
	})
}

func TestWorkerSetupErrorStopsTheRun(t *testing.T) {
	t.Parallel()
	nw := func(context.Context, int, *rand.Rand) (load.Worker, error) {
		return nil, errors.New("connection refused")
	}
	_, err := load.Run(t.Context(), load.DefaultConfig(), []string{"op"}, nw, nil)
	if err == nil {
		t.Fatal("Run succeeded with workers that cannot start")
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mut  func(*load.Config)
	}{
		{"no workers", func(c *load.Config) { c.Workers = 0 }},
		{"negative rate", func(c *load.Config) { c.Rate = -1 }},
		{"negative duration", func(c *load.Config) { c.Duration = -time.Second }},
		{"neither duration nor count", func(c *load.Config) { c.Duration = 0 }},
		{"both duration and count", func(c *load.Config) { c.Count = 10 }},
		{"negative warmup", func(c *load.Config) { c.Warmup = -1 }},
		{"max in flight below workers", func(c *load.Config) { c.Rate, c.Workers, c.MaxInFlight = 10, 5, 2 }},
		{"count below workers", func(c *load.Config) { c.Duration, c.Count, c.Workers = 0, 2, 5 }},
		{"unknown arrival", func(c *load.Config) { c.Rate, c.Arrival = 10, "burst" }},
		{"negative queue", func(c *load.Config) { c.Queue = -1 }},
	}
	for _, tt := range tests {
		cfg := load.DefaultConfig()
		tt.mut(&cfg)
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s: Validate() = nil, want an error", tt.name)
		}
	}
	if err := load.DefaultConfig().Validate(); err != nil {
		t.Errorf("DefaultConfig().Validate() = %v", err)
	}
}

// A closed-loop worker facing a refused connection pauses between attempts
// (doubling to 100 ms) instead of spinning through instant failures, and
// the pause is not counted in the next operation's latency.
func TestConnectionErrorsBackOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		nw := func(context.Context, int, *rand.Rand) (load.Worker, error) {
			return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
				if time.Since(start) < time.Second {
					return load.Outcome{}, fmt.Errorf("dial: %w", syscall.ECONNREFUSED)
				}
				time.Sleep(10 * time.Millisecond)
				return load.Outcome{}, nil
			}), nil
		}
		res := run(t, t.Context(), config(func(c *load.Config) { c.Duration = 2 * time.Second }), nw)
		op := res.Set[0]
		// 1+2+4+…+64 ms, then 100 ms pauses: about 16 attempts in the first second.
		if op.Errors < 10 || op.Errors > 25 {
			t.Errorf("%d connection errors in 1 s, want about 16", op.Errors)
		}
		if op.Ops < 85 {
			t.Errorf("%d operations after the target came back, want about 90", op.Ops)
		}
		if got := time.Duration(op.Latency.Max()); got > 11*time.Millisecond {
			t.Errorf("max latency %v includes a back-off pause, want 10ms", got)
		}
	})
}

// A target that panics in an operation costs that operation, counted as an
// error of kind panic, not the run: closed and open loop alike.
func TestPanicsAreCountedNotFatal(t *testing.T) {
	for _, open := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			nw := func(context.Context, int, *rand.Rand) (load.Worker, error) {
				n := 0
				return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
					time.Sleep(time.Millisecond)
					if n++; n%10 == 0 {
						panic("engine: write failed")
					}
					return load.Outcome{}, nil
				}), nil
			}
			cfg := config(func(c *load.Config) {
				c.Duration, c.Count = 0, 500
				if open {
					c.Rate, c.Workers, c.MaxInFlight = 100, 1, 1
					c.Queue = 10
				}
			})
			op := run(t, t.Context(), cfg, nw).Set[0]
			if op.Ops != 450 || op.Kinds[load.KindPanic] != 50 {
				t.Errorf("open %v: %d ops, errors %v; want 450 ops and 50 panics", open, op.Ops, op.Kinds)
			}
		})
	}
}

// A worker that has finished its operation is free, even before it is back
// at the channel: an open loop whose operations end before the next arrival
// never needs a second worker, however long it runs.
func TestOpenLoopWorkersDoNotRatchet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var made atomic.Int64
		newWorker := func(ctx context.Context, id int, rng *rand.Rand) (load.Worker, error) {
			made.Add(1)
			return sleeper(500*time.Microsecond)(ctx, id, rng)
		}
		cfg := load.DefaultConfig()
		cfg.Rate, cfg.Workers, cfg.MaxInFlight, cfg.Duration, cfg.Warmup, cfg.Interval = 1000, 1, 100, 5*time.Second, 0, 0
		cfg.Sleep = time.Sleep
		res, err := load.Run(context.Background(), cfg, []string{"op"}, newWorker, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := made.Load(); n != 1 || res.Set[0].Ops != 5000 || res.Dropped != 0 {
			t.Errorf("%d workers made, %d ops, %d dropped; want 1 worker, 5000 ops, 0 dropped", n, res.Set[0].Ops, res.Dropped)
		}
	})
}

// Phases are recorded under the rule latency follows: an operation whose
// intended start falls in the warm-up counts in neither, so each phase's
// count equals the run's operations, and lag is kept in open loop only.
func TestPhasesCoverTheMeasuredOperations(t *testing.T) {
	for _, rate := range []float64{0, 200} {
		t.Run(fmt.Sprintf("rate=%g", rate), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				newWorker := func(context.Context, int, *rand.Rand) (load.Worker, error) {
					var ph load.Phases
					return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
						time.Sleep(3 * time.Millisecond)
						ph[0], ph[1] = time.Millisecond, load.Phase(2*time.Millisecond)
						return load.Outcome{Rows: 1, Phases: &ph}, nil
					}), nil
				}
				cfg := load.DefaultConfig()
				cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = rate, time.Second, 500*time.Millisecond, 0
				cfg.Phases, cfg.Sleep = []string{"build", "send"}, time.Sleep
				res, err := load.Run(context.Background(), cfg, []string{"op"}, newWorker, nil)
				if err != nil {
					t.Fatal(err)
				}
				st, ph := res.Stats(0), res.PhaseStats(0)
				for _, name := range cfg.Phases {
					if ph[name].Count != st.Ops || ph[name].TotalNs == 0 {
						t.Errorf("phase %s: count %d total %d, want count = ops = %d", name, ph[name].Count, ph[name].TotalNs, st.Ops)
					}
				}
				if want := st.Ops * int64(time.Millisecond); ph["build"].TotalNs != want {
					t.Errorf("build total %d, want %d", ph["build"].TotalNs, want)
				}
				if open := rate > 0; (st.LagHDR != "") != open || (st.ServiceHDR != "") != open {
					t.Errorf("open loop %v: lag histogram %v, service histogram %v", open, st.LagHDR != "", st.ServiceHDR != "")
				}
			})
		})
	}
}

// scheduledWorker notes what the runner tells a load.Scheduled worker.
type scheduledWorker struct {
	d                  time.Duration
	scheduled, skipped []time.Time
}

func (w *scheduledWorker) Scheduled(t time.Time) { w.scheduled = append(w.scheduled, t) }
func (w *scheduledWorker) Skipped(t time.Time)   { w.skipped = append(w.skipped, t) }
func (w *scheduledWorker) Do(context.Context) (load.Outcome, error) {
	time.Sleep(w.d)
	return load.Outcome{}, nil
}

// A Scheduled worker hears the intended start of every arrival it runs and
// of every one it skips as too late (pgbench's -l needs both), and the
// skipped ones are the run's drops.
func TestScheduledWorkerHearsEveryArrival(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &scheduledWorker{d: 15 * time.Millisecond}
		cfg := load.DefaultConfig()
		cfg.Rate, cfg.Workers, cfg.MaxInFlight, cfg.Queue = 100, 1, 1, 1000
		cfg.Duration, cfg.Warmup, cfg.Interval, cfg.SkipLate, cfg.Sleep = time.Second, 0, 0, 20*time.Millisecond, time.Sleep
		start := time.Now()
		res, err := load.Run(context.Background(), cfg, []string{"op"}, func(context.Context, int, *rand.Rand) (load.Worker, error) { return w, nil }, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(w.scheduled) + len(w.skipped); n != 100 || len(w.skipped) == 0 || int64(len(w.skipped)) != res.Dropped {
			t.Fatalf("heard %d scheduled and %d skipped (run dropped %d); want 100 in all, the skipped ones dropped", len(w.scheduled), len(w.skipped), res.Dropped)
		}
		if first := w.scheduled[0]; !first.Equal(start) {
			t.Errorf("first arrival intended %s after the start, want at it", first.Sub(start))
		}
		// The queue had room for every arrival: the latency limit skipped
		// them, and the warning says so rather than blaming concurrency.
		want := fmt.Sprintf("%d arrivals were skipped by the latency limit: they could not start within 20ms", res.Dropped)
		if got := strings.Join(res.Warnings, "; "); !strings.Contains(got, want) || strings.Contains(got, "could not keep up") {
			t.Errorf("warnings %q; want %q and no blame on the operations in flight", got, want)
		}
	})
}

// TestErrorSamplesPerOperation: each operation's run gets the first
// message of its own errors; the run of all operations, the lowest
// operation's where several had the kind.
func TestErrorSamplesPerOperation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := func(context.Context, int, *rand.Rand) (load.Worker, error) {
			i := 0
			return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
				time.Sleep(time.Millisecond)
				i++
				return load.Outcome{Op: uint8(i % 2)}, fmt.Errorf("op %d failed (#%d)", i%2, i)
			}), nil
		}
		res, err := load.Run(t.Context(), config(func(c *load.Config) { c.Workers, c.Duration, c.Count = 1, 0, 10 }), []string{"even", "odd"}, nw, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			op   int
			want string
		}{{0, "op 0 failed (#2)"}, {1, "op 1 failed (#1)"}, {-1, "op 0 failed (#2)"}} {
			if got := res.SamplesOf(tc.op)[load.KindOther]; got != tc.want {
				t.Errorf("operation %d: first other error %q, want %q", tc.op, got, tc.want)
			}
		}
	})
}

// TestAbandonedErrorIsNotSampled: an operation abandoned as stuck that
// fails after Run returned writes nothing into the result's samples, which
// the caller owns by then (it used to: a concurrent map write).
func TestAbandonedErrorIsNotSampled(t *testing.T) {
	release := make(chan struct{})
	nw := func(context.Context, int, *rand.Rand) (load.Worker, error) {
		first := true
		return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
			if first {
				first = false
				return load.Outcome{}, errors.New("quick failure")
			}
			<-release // stuck, deaf to cancellation
			return load.Outcome{}, fmt.Errorf("late: %w", syscall.ECONNRESET)
		}), nil
	}
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Warmup, cfg.Duration, cfg.Interval, cfg.Grace = 1, 0, 50*time.Millisecond, 0, 10*time.Millisecond
	res, err := load.Run(t.Context(), cfg, []string{"op"}, nw, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := maps.Clone(res.ErrorSamples)
	close(release)
	time.Sleep(100 * time.Millisecond) // the stuck operation returns its error now
	if !maps.Equal(res.ErrorSamples, before) || len(before) != 1 {
		t.Errorf("samples %v after the abandoned operation failed, %v before: want one sample, unchanged", res.ErrorSamples, before)
	}
}

// OnTagged hears the tag of every measured operation that succeeded, and
// of no other (warm-up, failures, untagged ones), with its service time:
// a family joins exactly the measured operations to the server's records.
func TestOnTaggedHearsTheMeasuredOperations(t *testing.T) {
	for _, rate := range []float64{0, 200} {
		t.Run(fmt.Sprintf("rate=%g", rate), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var seq atomic.Uint64
				newWorker := func(context.Context, int, *rand.Rand) (load.Worker, error) {
					return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
						time.Sleep(3 * time.Millisecond)
						n := seq.Add(1)
						switch n % 5 {
						case 0:
							return load.Outcome{}, errors.New("refused")
						case 1:
							return load.Outcome{Rows: 1}, nil // untagged: counted by its row
						}
						return load.Outcome{Tag: n}, nil
					}), nil
				}
				var mu sync.Mutex
				tags := map[uint64]time.Duration{}
				cfg := load.DefaultConfig()
				cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = rate, time.Second, 500*time.Millisecond, 0
				cfg.Sleep = time.Sleep
				cfg.OnTagged = func(tag uint64, d time.Duration) {
					mu.Lock()
					defer mu.Unlock()
					if _, dup := tags[tag]; dup {
						t.Errorf("tag %d heard twice", tag)
					}
					tags[tag] = d
				}
				res, err := load.Run(context.Background(), cfg, []string{"op"}, newWorker, nil)
				if err != nil {
					t.Fatal(err)
				}
				st := res.Stats(0)
				if got, want := int64(len(tags)), st.Ops-st.Rows; got != want || got == 0 {
					t.Errorf("%d tags heard, want the %d measured successes less the %d untagged = %d", got, st.Ops, st.Rows, want)
				}
				for tag, d := range tags {
					if tag%5 == 0 || tag%5 == 1 {
						t.Errorf("tag %d: a failed or untagged operation", tag)
					}
					if d != 3*time.Millisecond {
						t.Errorf("tag %d: service %s, want 3ms", tag, d)
					}
				}
				if warm := seq.Load() - uint64(st.Ops+st.Errors); warm == 0 {
					t.Error("no warm-up operation ran: the test shows nothing")
				}
			})
		})
	}
}
