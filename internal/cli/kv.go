package cli

import "github.com/spf13/cobra"

// newKVCmd is replaced by the kv family's command.
func newKVCmd(env Env) *cobra.Command {
	return &cobra.Command{Use: "kv", Short: "(kv family: not built yet)", Hidden: true, Args: noArgs,
		RunE: runE(func(*cobra.Command, []string) error { return usagef("the kv family is not built yet") })}
}
