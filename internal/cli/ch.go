package cli

import "github.com/spf13/cobra"

func newCHCmd(env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ch",
		Short: "Benchmark ClickHouse clients: bulk inserts and query latency",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newCHInsertCmd(env), newCHQueryCmd(env))
	return cmd
}
