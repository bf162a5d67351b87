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
		duration  time.Duration
		rate      float64
		overhead  time.Duration
		tolerance float64
		out       outputFlags
	)
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Check that dbmeter's numbers can be trusted on this machine",
		Long: `calibrate prints the clock's cost and resolution, dbmeter's own cost per
operation, how closely the open-loop scheduler holds a rate, and a
coordinated-omission check: against a target that freezes on a schedule the
reported percentiles must match the analytically expected ones. Each figure
gets PASS or FAIL; the exit code is 1 if any fails.`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.DurationVar(&duration, "duration", 3*time.Second, "length of each measured check")
	f.Float64Var(&rate, "rate", 100_000, "open-loop rate to hold, per second")
	f.DurationVar(&overhead, "max-overhead", 100*time.Nanosecond, "most the runner may cost per operation")
	f.Float64Var(&tolerance, "tolerance", 0.01, "allowed relative error of the achieved rate")
	out.bind(f)
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		if duration <= 0 || rate <= 0 || overhead <= 0 || tolerance <= 0 {
			return usagef("--duration, --rate, --max-overhead and --tolerance must be positive")
		}
		ctx := cmd.Context()
		s, err := newSession(env, out, "")
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
		if c, err = calibrate.Rate(ctx, rate, duration, tolerance); err != nil {
			s.abort()
			return err
		}
		report(c)
		checks = append(checks, c)
		stall, err := calibrate.Stall(ctx, 1000, time.Second, 100*time.Millisecond, max(duration, 5*time.Second), 0.05)
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
