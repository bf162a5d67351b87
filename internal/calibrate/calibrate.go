// Package calibrate measures whether dbmeter's numbers can be trusted on this
// machine: the clock's cost and resolution, the runner's own cost per
// operation, how late the open-loop scheduler starts operations and what
// CPU it takes to hold a rate, and whether a stalled target shows in the
// percentiles as theory says it must. Every check with a verdict has a test
// that breaks dbmeter on purpose and sees it fail.
package calibrate

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/null"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Check is one calibration figure. Pass is nil for figures that are
// information only.
type Check struct {
	Name string
	Got  string
	Want string
	Pass *bool
	// Advice, for a check with a verdict, says what a failure means for
	// the user's own runs and what to do; String prints it under a FAIL.
	// It names settings as {Field}: calibrate's Limits' and the run
	// commands' ({Workers}, {Find}), which the CLI spells.
	Advice string
	Result *load.Result // the run behind the figure, if any
	Config load.Config
}

func verdict(ok bool) *bool { return &ok }

// String is the check's line in calibrate's report: the verdict first, so
// that it stays in one column however long a figure is, then the name, the
// figure and its bound; under a FAIL, the advice.
func (c Check) String() string {
	v := "INFO"
	if c.Pass != nil {
		v = "PASS"
		if !*c.Pass {
			v = "FAIL"
		}
	}
	line := fmt.Sprintf("%-4s  %-80s %s", v, c.Name, c.Got)
	if c.Want != "" {
		line += "  (want " + c.Want + ")"
	}
	if v == "FAIL" && c.Advice != "" {
		line += "\n      " + c.Advice
	}
	return line
}

// Timer measures the cost of one clock reading and the smallest step the
// clock shows.
func Timer() (cost, resolution time.Duration) {
	const n = 2_000_000
	base := time.Now()
	start := time.Since(base)
	last := start
	resolution = time.Duration(math.MaxInt64)
	for range n {
		t := time.Since(base)
		if d := t - last; d > 0 && d < resolution {
			resolution = d
		}
		last = t
	}
	return (last - start) / n, resolution
}

// Overhead runs the null target in closed loop with one worker for d and
// returns the runner's cost per operation. limit is the most it may be.
func Overhead(ctx context.Context, d time.Duration, limit time.Duration) (Check, error) {
	cfg := load.DefaultConfig()
	cfg.Duration, cfg.Warmup, cfg.Interval, cfg.InProcessTarget = d, d/10, 0, true
	res, err := load.Run(ctx, cfg, []string{null.Op}, null.New(null.Config{}).NewWorker, nil)
	if err != nil {
		return Check{}, err
	}
	ops := res.Set[0].Ops
	perOp := math.Inf(1)
	if ops > 0 {
		perOp = float64(res.Elapsed.Nanoseconds()) / float64(ops)
	}
	return Check{
		Name: "runner overhead per operation (closed loop, 1 worker, null target)",
		Got:  fmt.Sprintf("%.1f ns/op (%.2f M ops/s)", perOp, 1e3/perOp),
		Want: fmt.Sprintf("<= %d ns/op", limit.Nanoseconds()),
		Pass: verdict(perOp <= float64(limit.Nanoseconds())),
		Advice: fmt.Sprintf("dbmeter itself takes %.0f ns per operation here: closed-loop rates near %.2f M ops/s measure dbmeter, not the target. Compare targets that run well below that rate (under a tenth of it), or use a quieter or faster machine.",
			perOp, 1e3/perOp),
		Result: res, Config: cfg,
	}, nil
}

// Options change how the checks run. The zero value is the real thing;
// tests break dbmeter on purpose through them to show each check fails.
type Options struct {
	// Sleep replaces the open-loop dispatcher's sleep: a late one, or one
	// that spins, is a broken scheduler.
	Sleep func(time.Duration)
	// ServiceTime makes the stall check read latency from each operation's
	// actual start, as a runner with coordinated omission reports it.
	ServiceTime bool
}

// Scheduler runs the null target at rate/s in open loop for d and checks
// dbmeter's own cost of holding that rate: the schedule lag p99 (how late
// operations started after their intended start) against maxLag, and the
// CPU dbmeter used, in cores, against maxCores. Both come from the same run.
func Scheduler(ctx context.Context, rate float64, d, maxLag time.Duration, maxCores float64, o Options) ([]Check, error) {
	res, cfg, err := openRun(ctx, rate, d, o)
	if err != nil {
		return nil, err
	}
	st := res.Stats(0)
	cores := coresOf(st)
	return []Check{lagCheck(rate, st, maxLag, res, cfg), {
		Name: fmt.Sprintf("open loop at %s/s: dbmeter's own CPU", fmtRate(rate)),
		Got:  fmt.Sprintf("%.3f cores (%.0f ns per operation)", cores, st.Client.CPUNsPerOp),
		Want: fmt.Sprintf("<= %.3g cores", maxCores),
		Pass: verdict(cores <= maxCores),
		Advice: fmt.Sprintf("holding %s/s takes dbmeter %.2f cores here: at that rate it competes with a target on the same machine for CPU. Run at lower rates, give the target its own machine, and heed a run's warning that dbmeter used most of its CPU.",
			fmtRate(rate), cores),
		Result: res, Config: cfg,
	}}, nil
}

// SchedulerFloor is Scheduler with the CPU held to maxRatio times the
// floor: what a bare loop that only sleeps with the precise sleeper until
// each arrival costs at the same rate, measured just before. One timer
// wake-up per arrival is the least an open loop that never spins can cost,
// and on a VM it is most of the cost, so the ratio says what dbmeter adds
// whatever the machine.
func SchedulerFloor(ctx context.Context, rate float64, d, maxLag time.Duration, maxRatio float64, o Options) ([]Check, error) {
	floor := Floor(ctx, rate, d)
	res, cfg, err := openRun(ctx, rate, d, o)
	if err != nil {
		return nil, err
	}
	st := res.Stats(0)
	cores := coresOf(st)
	ratio := math.Inf(1)
	if floor > 0 {
		ratio = cores / floor
	}
	return []Check{lagCheck(rate, st, maxLag, res, cfg), {
		Name: fmt.Sprintf("open loop at %s/s: dbmeter's own CPU / a bare precise-sleep loop's", fmtRate(rate)),
		Got:  fmt.Sprintf("%.2fx (%.3f / %.3f cores)", ratio, cores, floor),
		Want: fmt.Sprintf("<= %.3gx", maxRatio),
		Pass: verdict(ratio <= maxRatio),
		Advice: fmt.Sprintf("at %s/s dbmeter costs %.2fx what a loop that only sleeps until each arrival costs here (%.3f cores): the excess is dbmeter's own work, taken from a target on the same machine. Keep open-loop rates low on this machine, or run dbmeter on a machine of its own.",
			fmtRate(rate), ratio, floor),
		Result: res, Config: cfg,
	}}, nil
}

// Floor runs, for d, a loop that sleeps with the precise sleeper until
// each arrival at a constant rate/s and does nothing else, and returns the
// CPU it used, in cores.
func Floor(ctx context.Context, rate float64, d time.Duration) float64 {
	sleep, release := load.PreciseSleeper()
	defer release()
	period := time.Duration(1e9 / rate)
	start, cpu := time.Now(), load.ProcessCPU()
	for next := period; next <= d && ctx.Err() == nil; next += period {
		if w := next - time.Since(start); w > 0 {
			sleep(w)
		}
	}
	return (load.ProcessCPU() - cpu).Seconds() / time.Since(start).Seconds()
}

// openRun runs the null target in open loop at rate/s for d.
func openRun(ctx context.Context, rate float64, d time.Duration, o Options) (*load.Result, load.Config, error) {
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.InProcessTarget = rate, d, d/10, 0, true
	cfg.Sleep = o.Sleep
	res, err := load.Run(ctx, cfg, []string{null.Op}, null.New(null.Config{}).NewWorker, nil)
	return res, cfg, err
}

func coresOf(st result.Stats) float64 {
	if st.DurationS <= 0 {
		return 0
	}
	return st.Client.CPUS / st.DurationS
}

func lagCheck(rate float64, st result.Stats, maxLag time.Duration, res *load.Result, cfg load.Config) Check {
	lag := time.Duration(st.Lag.P99)
	return Check{
		Name: fmt.Sprintf("open loop at %s/s: schedule lag p99 (actual - intended start)", fmtRate(rate)),
		Got:  fmt.Sprintf("%s (max %s, %d dropped)", lag.Round(time.Microsecond), time.Duration(st.Lag.Max).Round(time.Microsecond), st.Dropped),
		Want: fmt.Sprintf("<= %s", maxLag),
		Pass: verdict(lag <= maxLag && st.Dropped == 0),
		Advice: fmt.Sprintf("at %s/s dbmeter starts operations up to %s late (%d arrivals dropped): open-loop latencies at this rate include that lag, and ones below about %s cannot be told apart. Run open loop only at rates where this check passes (try calibrate {Rate} with a lower rate), or closed loop ({Workers} without {Rate}).",
			fmtRate(rate), lag.Round(time.Microsecond), st.Dropped, (10 * lag).Round(time.Microsecond)),
		Result: res, Config: cfg,
	}
}

func fmtRate(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%.1fk", v/1000)
	}
	return fmt.Sprintf("%.1f", v)
}

// Stall is the coordinated-omission check: the null target freezes for
// stall every period while arrivals come at rate/s to a single worker, and
// late arrivals queue. An arrival at time t inside a freeze ending at e waits
// e−t, so P(latency > x) = (stall − x)/period for 0 < x < stall, which
// gives the expected quantiles. A runner that timed operations from their
// actual start would report sub-millisecond percentiles instead; the service
// time histogram shows exactly that, so the size of the correction is
// printed too.
func Stall(ctx context.Context, rate float64, period, stall, d time.Duration, tolerance float64, o Options) ([]Check, error) {
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.InProcessTarget = rate, d, 0, 0, true
	cfg.Workers, cfg.MaxInFlight, cfg.Queue = 1, 1, int(rate*stall.Seconds())*2+16
	target := null.New(null.Config{StallEvery: period, Stall: stall})
	res, err := load.Run(ctx, cfg, []string{null.Op}, target.NewWorker, nil)
	if err != nil {
		return nil, err
	}
	op := res.Set[0]
	if o.ServiceTime {
		op.Latency = op.Service
	}
	var checks []Check
	for _, q := range []float64{99, 99.9} {
		want := ExpectedQuantile(q, period, stall)
		got := time.Duration(op.Latency.ValueAtQuantile(q))
		off := math.Abs(float64(got-want)) / float64(want)
		checks = append(checks, Check{
			Name: fmt.Sprintf("stalled target: p%g from intended start (%s freeze every %s, %g/s)", q, stall, period, rate),
			Got:  fmt.Sprintf("%s (service time from actual start: %s)", got.Round(10*time.Microsecond), time.Duration(op.Service.ValueAtQuantile(q)).Round(time.Microsecond)),
			Want: fmt.Sprintf("%s ± %.0f%%", want.Round(time.Microsecond), tolerance*100),
			Pass: verdict(off <= tolerance),
			Advice: fmt.Sprintf("a known freeze shows as p%g %s, not %s: tail percentiles (p99 and above) from this machine are off by %.0f%%. Trust medians only, and run calibrate again on a quieter machine before comparing tails.",
				q, got.Round(10*time.Microsecond), want.Round(time.Microsecond), off*100),
			Result: res, Config: cfg,
		})
	}
	gotMax := time.Duration(op.Latency.Max())
	checks = append(checks, Check{
		Name: "stalled target: max from intended start",
		Got:  gotMax.Round(10 * time.Microsecond).String(),
		Want: fmt.Sprintf("%s ± %.0f%%", stall, tolerance*100),
		Pass: verdict(math.Abs(float64(gotMax-stall))/float64(stall) <= tolerance),
		Advice: fmt.Sprintf("a %s freeze shows as a %s maximum: the largest latencies this machine reports include its own pauses. Read max as an upper bound only.",
			stall, gotMax.Round(10*time.Microsecond)),
		Result: res, Config: cfg,
	})
	return checks, nil
}

// Capacity runs the capacity search (--find-max-rate) against the null
// target whose operations take delay, slots of them at once, the others
// queued inside the target (null --concurrency): its capacity is
// slots/delay exactly, so the search must find it within tolerance, and
// find the objective, not dbmeter's own lag or CPU, to be what bounded it.
// Steps last step each.
func Capacity(ctx context.Context, delay time.Duration, slots int, step time.Duration, tolerance float64, o Options) (Check, error) {
	want := float64(slots) / delay.Seconds()
	slo, err := capacity.ParseSLO(fmt.Sprintf("p99<%s", 5*delay))
	if err != nil {
		return Check{}, err
	}
	cfg := load.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.Interval = want/10, step, step/10, 0
	cfg.Sleep = o.Sleep
	p, err := null.NewPlan(null.Options{Target: null.Config{Delay: delay, Concurrency: slots}, Load: cfg, Params: map[string]string{},
		Search: &capacity.Search{SLO: slo, Start: want / 10, MaxInFlight: cfg.MaxInFlight}})
	if err != nil {
		return Check{}, err
	}
	var c plan.Collector
	if err := plan.Execute(ctx, p, &c); err != nil {
		return Check{}, err
	}
	if len(c.Capacity) == 0 {
		return Check{}, fmt.Errorf("the capacity search ran no step")
	}
	got := c.Capacity[0]
	off := (got.MaxRate - want) / want
	return Check{
		Name: fmt.Sprintf("capacity search: a queue into %d slots of %s each (%s)", slots, delay, slo.Text),
		Got:  fmt.Sprintf("%.0f/s (%+.1f%%, %d steps, bounded by %s)", got.MaxRate, off*100, len(got.Steps), got.Limit),
		Want: fmt.Sprintf("%.0f/s ± %.0f%%, by objective", want, tolerance*100),
		Pass: verdict(math.Abs(off) <= tolerance && got.Limit == "objective"),
		Advice: fmt.Sprintf("on a target of known capacity %.0f/s the search answered %.0f/s (%+.0f%%), bounded by %s: {Find} answers from this machine can be off by that much, and a bound other than objective means dbmeter, not the target, set the answer. Find capacities on a quieter machine, or compare them only with one another here, where 1,000/s reads %.0f/s.",
			want, got.MaxRate, off*100, got.Limit, got.MaxRate),
		Config: cfg,
	}, nil
}

// ExpectedQuantile is the latency at percentile q (0–100) of arrivals at a
// constant rate into a target frozen for stall every period, when the
// target is otherwise instant: stall − (1 − q/100) × period, or 0 when the
// quantile falls outside the freezes.
func ExpectedQuantile(q float64, period, stall time.Duration) time.Duration {
	x := float64(stall) - (1-q/100)*float64(period)
	return time.Duration(max(x, 0))
}

// Limits are the bounds the checks of All hold dbmeter to.
type Limits struct {
	Duration time.Duration // each measured check
	Rate     float64       // the high open-loop rate
	Overhead time.Duration // closed-loop runner cost per operation
	Lag      time.Duration // schedule lag p99, at every rate
	CPU      float64       // cores to hold Rate
	// FloorRatio bounds the CPU to hold 1,000/s as a multiple of a bare
	// precise-sleep loop's at the same rate.
	FloorRatio float64
}

// DefaultLimits are calibrate's defaults.
func DefaultLimits() Limits {
	return Limits{Duration: 3 * time.Second, Rate: 100_000, Overhead: 100 * time.Nanosecond, Lag: 100 * time.Microsecond, CPU: 0.25, FloorRatio: 1.5}
}

// Validate says whether every limit is positive, naming the first that is
// not as its {Field}.
func (l Limits) Validate() error {
	for _, v := range []struct {
		field    string
		positive bool
		got      any
	}{
		{"Duration", l.Duration > 0, l.Duration}, {"Rate", l.Rate > 0, l.Rate},
		{"Overhead", l.Overhead > 0, l.Overhead}, {"Lag", l.Lag > 0, l.Lag},
		{"CPU", l.CPU > 0, l.CPU}, {"FloorRatio", l.FloorRatio > 0, l.FloorRatio},
	} {
		if !v.positive {
			return fmt.Errorf("{%s} must be positive, got %v", v.field, v.got)
		}
	}
	return nil
}

// All runs every check in turn, handing each to show as it is decided, and
// returns the runs behind them as result runs (one per measurement) with
// the clock's cost, and how many checks failed.
func All(ctx context.Context, l Limits, show func(Check)) (runs []result.Run, failed int, err error) {
	cost, res := Timer()
	show(Check{Name: "clock: cost of one reading", Got: cost.String()})
	show(Check{Name: "clock: smallest step seen", Got: res.String()})
	var measured []Check
	add := func(cs []Check, err error) error {
		if err != nil {
			return err
		}
		for _, c := range cs {
			if c.Pass != nil && !*c.Pass {
				failed++
			}
			show(c)
		}
		if cs[0].Result != nil {
			measured = append(measured, cs[0])
		}
		return nil
	}
	steps := []func() ([]Check, error){
		func() ([]Check, error) { c, err := Overhead(ctx, l.Duration, l.Overhead); return []Check{c}, err },
		func() ([]Check, error) { return Scheduler(ctx, l.Rate, l.Duration, l.Lag, l.CPU, Options{}) },
		func() ([]Check, error) { return SchedulerFloor(ctx, 1000, l.Duration, l.Lag, l.FloorRatio, Options{}) },
		func() ([]Check, error) {
			return Stall(ctx, 1000, time.Second, 100*time.Millisecond, max(l.Duration, 5*time.Second), 0.05, Options{})
		},
		func() ([]Check, error) {
			c, err := Capacity(ctx, 10*time.Millisecond, 10, time.Second, 0.05, Options{})
			return []Check{c}, err
		},
	}
	for _, step := range steps {
		if err := add(step()); err != nil {
			return runs, failed, err
		}
	}
	for _, c := range measured {
		run := c.Result.Fill(result.Run{Family: "null", Target: "null", Workload: null.Op, Repeat: 1}, c.Config, 0)
		x := null.FigureDeclarations()
		x.Set(&run, "clock_cost_ns", float64(cost.Nanoseconds()))
		if !c.Config.Open() && run.Ops > 0 {
			x.Set(&run, "overhead_ns_per_op", run.DurationS*1e9/float64(run.Ops))
		}
		runs = append(runs, run)
	}
	return runs, failed, nil
}
