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
		Use:     "null",
		Short:   "Drive the null target: measures dbmeter itself and proves the method",
		Long:    help("null"),
		Example: help("null-example"),
		Args:    noArgs,
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
	rf.bind(cmd.Flags(), load.DefaultConfig())
	declare(cmd.Flags(),
		opt{"Delay", "delay", "", &nc.Delay, "each operation takes this long"},
		opt{"StallEvery", "stall-every", "", &nc.StallEvery, "the target freezes once per this period"},
		opt{"Stall", "stall", "", &nc.Stall, "how long each freeze lasts"},
		opt{"Concurrency", "concurrency", "", &nc.Concurrency, "at most this many operations execute at once inside the target; later ones queue, and the wait is in their latency (0: no limit)"})
	sf.bind(cmd.Flags(), &rf)
	return cmd
}
