package cli

import (
	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/null"
)

func newNullCmd(env Env) *cobra.Command {
	var rf runFlags
	var sf searchFlags
	var nc null.Config
	cmd := &cobra.Command{
		Use:   "null",
		Short: "Drive the null target: measures dbmeter itself and proves the method",
		Long: `null runs operations that do nothing (or wait --delay, or freeze for --stall
every --stall-every), --concurrency at a time if given, the others queued. Against it every figure has a known answer, so it shows
dbmeter's own cost and how a stalled target shows in open-loop percentiles.`,
		Example: `  dbmeter null --workers 1 --duration 3s --json r.json
  dbmeter null --rate 1000 --stall-every 1s --stall 100ms --duration 10s
  dbmeter null --delay 10ms --concurrency 10 --find-max-rate --slo 'p99<50ms' --step-duration 1s
  dbmeter null --delay 10ms --max-in-flight 10 --find-max-rate --slo 'p99<50ms' --step-duration 1s`,
		Args: noArgs,
	}
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		cfg, err := rf.config()
		if err != nil {
			return err
		}
		search, err := sf.search(&cfg, "count")
		if err != nil {
			return err
		}
		o := null.Options{Target: nc, Load: cfg, Repeat: rf.repeat, Search: search, Params: flagParams(cmd.Flags())}
		return null.Execute(cmd.Context(), o, rf.opener(env, "null"))
	})
	def := load.DefaultConfig()
	rf.bind(cmd.Flags(), def)
	declare(cmd.Flags(),
		opt{"Delay", "delay", "", &nc.Delay, "each operation takes this long"},
		opt{"StallEvery", "stall-every", "", &nc.StallEvery, "the target freezes once per this period"},
		opt{"Stall", "stall", "", &nc.Stall, "how long each freeze lasts"},
		opt{"Concurrency", "concurrency", "", &nc.Concurrency, "at most this many operations execute at once inside the target; later ones queue, and the wait is in their latency (0: no limit)"})
	sf.bind(cmd.Flags(), &rf)
	return cmd
}
