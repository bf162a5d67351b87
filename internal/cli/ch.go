package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/ch"
)

func newCHCmd(env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ch",
		Short: "Benchmark ClickHouse clients: bulk inserts and query latency",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	timeout := defaultConnectTimeout // read back by serverVersion, from the subcommand's flags
	declare(cmd.PersistentFlags(), opt{"ConnectTimeout", "connect-timeout", "", &timeout, "give up reaching the server after this long"})
	cmd.AddCommand(newCHInsertCmd(env), newCHQueryCmd(env), newCHNullServerCmd(env))
	return cmd
}

const defaultConnectTimeout = 5 * time.Second

// serverVersion asks the server its version within --connect-timeout.
func serverVersion(cmd *cobra.Command, dsn ch.DSN) (ch.Version, error) {
	timeout, _ := cmd.Flags().GetDuration("connect-timeout")
	return ch.Reach{DSN: dsn, ConnectTimeout: timeout}.Version(cmd.Context())
}
