package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/calibrate"
	"github.com/dbmeter/dbmeter/internal/null"
	"github.com/dbmeter/dbmeter/internal/result"
)

func newCalibrateCmd(env Env) *cobra.Command {
	var (
		duration time.Duration
		rate     float64
		overhead time.Duration
		maxLag   time.Duration
		maxCPU   float64
		maxCPULo float64
		out      outputFlags
	)
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Check that dbmeter's numbers can be trusted on this machine",
		Long: `calibrate prints the clock's cost and resolution, dbmeter's own cost per
operation in closed loop, the open-loop scheduler's lag (how late it starts
operations) and its CPU at --rate and at 1,000/s, and a coordinated-omission
check: against a target that freezes on a schedule the reported percentiles
must match the analytically expected ones. Each figure gets PASS or FAIL;
the exit code is 1 if any fails.`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.DurationVar(&duration, "duration", 3*time.Second, "length of each measured check")
	f.Float64Var(&rate, "rate", 100_000, "open-loop rate to hold, per second")
	f.DurationVar(&overhead, "max-overhead", 100*time.Nanosecond, "most the runner may cost per operation")
	f.DurationVar(&maxLag, "max-lag", 100*time.Microsecond, "most the schedule lag p99 may be")
	f.Float64Var(&maxCPU, "max-cpu", 0.25, "most CPU (in cores) dbmeter may use to hold --rate")
	f.Float64Var(&maxCPULo, "max-cpu-low", 0.02, "most CPU (in cores) dbmeter may use to hold 1,000/s")
	out.bind(f)
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		if duration <= 0 || rate <= 0 || overhead <= 0 || maxLag <= 0 || maxCPU <= 0 || maxCPULo <= 0 {
			return usagef("--duration, --rate, --max-overhead, --max-lag, --max-cpu and --max-cpu-low must be positive")
		}
		ctx := cmd.Context()
		s, err := newSession(env, "null", out, "")
		if err != nil {
			return err
		}
		w := env.Stdout
		cost, res := calibrate.Timer()
		fmt.Fprintf(w, "%-80s %s\n", "clock: cost of one reading", cost)
		fmt.Fprintf(w, "%-80s %s\n", "clock: smallest step seen", res)

		failed := 0
		report := func(c calibrate.Check) {
			v := "INFO"
			if c.Pass != nil {
				v = "PASS"
				if !*c.Pass {
					v, failed = "FAIL", failed+1
				}
			}
			fmt.Fprintf(w, "%-80s %-40s want %-16s %s\n", c.Name, c.Got, c.Want, v)
		}
		var checks []calibrate.Check
		c, err := calibrate.Overhead(ctx, duration, overhead)
		if err != nil {
			s.abort()
			return err
		}
		report(c)
		checks = append(checks, c)
		for _, at := range []struct{ rate, cores float64 }{{rate, maxCPU}, {1000, maxCPULo}} {
			sched, err := calibrate.Scheduler(ctx, at.rate, duration, maxLag, at.cores, calibrate.Options{})
			if err != nil {
				s.abort()
				return err
			}
			for _, c := range sched {
				report(c)
			}
			checks = append(checks, sched[0])
		}
		stall, err := calibrate.Stall(ctx, 1000, time.Second, 100*time.Millisecond, max(duration, 5*time.Second), 0.05, calibrate.Options{})
		if err != nil {
			s.abort()
			return err
		}
		for _, c := range stall {
			report(c)
		}
		checks = append(checks, stall[0])

		params := flagParams(cmd.Flags())
		for _, c := range checks {
			run := c.Result.Fill(result.Run{Family: "null", Target: "null", Workload: null.Op, Params: params, Repeat: 1}, c.Config, 0)
			run.Extra = map[string]float64{"clock_cost_ns": float64(cost.Nanoseconds())}
			if !c.Config.Open() && run.Ops > 0 {
				run.Extra["overhead_ns_per_op"] = run.DurationS * 1e9 / float64(run.Ops)
			}
			s.add(run)
		}
		s.flags.quiet = true // the checks above are the report
		if err := s.finish(ctx); err != nil {
			return err
		}
		if failed > 0 {
			return runError{fmt.Errorf("%d calibration checks failed: numbers from this machine are suspect", failed)}
		}
		return nil
	})
	return cmd
}
