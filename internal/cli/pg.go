package cli

import "github.com/spf13/cobra"

// newPGCmd is replaced by the pg family's command.
func newPGCmd(env Env) *cobra.Command {
	return &cobra.Command{Use: "pg", Short: "(pg family: not built yet)", Hidden: true, Args: noArgs,
		RunE: runE(func(*cobra.Command, []string) error { return usagef("the pg family is not built yet") })}
}
