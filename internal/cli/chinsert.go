package cli

import "github.com/spf13/cobra"

// newCHInsertCmd is replaced by the ch insert command.
func newCHInsertCmd(env Env) *cobra.Command {
	return &cobra.Command{Use: "insert", Short: "(ch insert: not built yet)", Hidden: true, Args: noArgs,
		RunE: runE(func(*cobra.Command, []string) error { return usagef("ch insert is not built yet") })}
}
