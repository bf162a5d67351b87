package cli

import (
	"context"
	"fmt"
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
	cmd.PersistentFlags().Duration("connect-timeout", defaultConnectTimeout, "give up reaching the server after this long")
	cmd.AddCommand(newCHInsertCmd(env), newCHQueryCmd(env), newCHNullServerCmd(env))
	return cmd
}

const defaultConnectTimeout = 5 * time.Second

// serverVersion asks the server its version within --connect-timeout.
func serverVersion(cmd *cobra.Command, dsn ch.DSN) (ch.Version, error) {
	timeout, err := cmd.Flags().GetDuration("connect-timeout")
	if err != nil || timeout <= 0 {
		return ch.Version{}, usagef("--connect-timeout must be positive")
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
	defer cancel()
	v, err := ch.ServerVersion(ctx, dsn)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return v, fmt.Errorf("ClickHouse at %s did not answer within --connect-timeout %s: check the host and port, and any firewall", dsn.Addr, timeout)
	}
	return v, err
}
