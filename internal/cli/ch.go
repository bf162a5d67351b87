package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
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
		return v, fmt.Errorf("ClickHouse at %s did not answer within --connect-timeout %s: check the host and port (the native TCP port, 9000 by default, not the HTTP 8123), and any firewall", dsn.Addr, timeout)
	}
	if err != nil {
		return v, chConnectError(dsn, err)
	}
	return v, nil
}

// chConnectError says what to check when the first contact with a
// ClickHouse server fails, as pg's connection errors do. The server's
// codes are matched in the message: clickhouse-go v1, which asks the
// version, has its own exception type, and the cli does not import it.
func chConnectError(dsn ch.DSN, err error) error {
	where := "ClickHouse at " + dsn.Addr
	msg := err.Error()
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("cannot connect to %s: connection refused: is ClickHouse running and listening there, on its native TCP port (9000 by default)? (--dsn, $DBMETER_CLICKHOUSE_DSN)", where)
	case errors.As(err, &dnsErr):
		return fmt.Errorf("cannot connect to %s: unknown host %q: check the host name in --dsn ($DBMETER_CLICKHOUSE_DSN)", where, dnsErr.Name)
	case strings.Contains(msg, "code: 193,") || strings.Contains(msg, "code: 516,") || strings.Contains(msg, "code: 192,"):
		// 193 wrong password, 516 authentication failed, 192 unknown user
		return fmt.Errorf("cannot connect to %s: %s: check the user and password in --dsn ($DBMETER_CLICKHOUSE_DSN)", where, serverMessage(msg))
	case strings.Contains(msg, "code: 81,"):
		return fmt.Errorf("cannot connect to %s: %s: create it or name another in --dsn ($DBMETER_CLICKHOUSE_DSN)", where, serverMessage(msg))
	}
	return err
}

// serverMessage is the text after a ClickHouse exception's "message: ".
func serverMessage(msg string) string {
	if _, m, ok := strings.Cut(msg, "message: "); ok {
		return m
	}
	return msg
}
