package cli

import (
	"time"

	"github.com/spf13/cobra"
)

func newCHCmd(env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ch",
		Short: "Benchmark ClickHouse clients: bulk inserts and query latency",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	timeout := defaultConnectTimeout // read back by ch insert and query, from their flags
	declare(cmd.PersistentFlags(), opt{"ConnectTimeout", "connect-timeout", "", &timeout, "give up reaching the server after this long"})
	cmd.AddCommand(newCHInsertCmd(env), newCHQueryCmd(env), newCHNullServerCmd(env))
	return cmd
}

const defaultConnectTimeout = 5 * time.Second
