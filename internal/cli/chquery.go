package cli

import "github.com/spf13/cobra"

// newCHQueryCmd is replaced by the ch query command.
func newCHQueryCmd(env Env) *cobra.Command {
	return &cobra.Command{Use: "query", Short: "(ch query: not built yet)", Hidden: true, Args: noArgs,
		RunE: runE(func(*cobra.Command, []string) error { return usagef("ch query is not built yet") })}
}
