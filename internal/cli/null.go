package cli

import (
	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/null"
	"github.com/dbmeter/dbmeter/internal/result"
)

func newNullCmd(env Env) *cobra.Command {
	var rf runFlags
	var nc null.Config
	cmd := &cobra.Command{
		Use:   "null",
		Short: "Drive the null target: measures dbmeter itself and proves the method",
		Long: `null runs operations that do nothing (or wait --delay, or freeze for --stall
every --stall-every). Against it every figure has a known answer, so it shows
dbmeter's own cost and how a stalled target shows in open-loop percentiles.`,
		Example: `  dbmeter null --workers 1 --duration 3s --json r.json
  dbmeter null --rate 1000 --stall-every 1s --stall 100ms --duration 10s`,
		Args: noArgs,
	}
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		cfg, err := rf.config()
		if err != nil {
			return err
		}
		if err := nc.Validate(); err != nil {
			return usageError{err}
		}
		cfg.InProcessTarget = true
		s, err := newSession(env, rf.output, "")
		if err != nil {
			return err
		}
		params := flagParams(cmd.Flags())
		for rep := 1; rep <= rf.repeat && cmd.Context().Err() == nil; rep++ {
			cfg.Seed = repeatSeed(rf.cfg.Seed, rep)
			res, err := load.Run(cmd.Context(), cfg, []string{null.Op}, null.New(nc).NewWorker, s.watcher(&rf, "null/noop"))
			if err != nil {
				s.abort()
				return err
			}
			run := res.Fill(result.Run{Family: "null", Target: "null", Workload: null.Op, Params: params, Repeat: rep}, cfg, 0)
			if !cfg.Open() && cfg.Workers == 1 && nc == (null.Config{}) && run.Ops > 0 {
				run.Extra = map[string]float64{"overhead_ns_per_op": run.DurationS * 1e9 / float64(run.Ops)}
			}
			s.add(run)
		}
		return s.finish(cmd.Context())
	})
	def := load.DefaultConfig()
	rf.bind(cmd.Flags(), def)
	cmd.Flags().DurationVar(&nc.Delay, "delay", 0, "each operation takes this long")
	cmd.Flags().DurationVar(&nc.StallEvery, "stall-every", 0, "the target freezes once per this period")
	cmd.Flags().DurationVar(&nc.Stall, "stall", 0, "how long each freeze lasts")
	return cmd
}
