package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

func newCHCmd(env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ch",
		Short: "Benchmark ClickHouse clients: bulk inserts and query latency",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.PersistentFlags().Duration("connect-timeout", defaultConnectTimeout, "give up reaching the server after this long")
	cmd.AddCommand(newCHInsertCmd(env), newCHQueryCmd(env))
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
	return ch.ServerVersion(ctx, dsn)
}

// planSink hands a plan's runs to the session: progress and metrics per
// step, each finished run recorded (and the JSON checkpointed).
type planSink struct {
	s  *session
	rf *runFlags
}

func (p planSink) Watcher(_, target, workload string) load.Watcher {
	return p.s.watcher(p.rf, target+"/"+workload)
}

func (p planSink) Add(runs ...result.Run) {
	for _, r := range runs {
		p.s.add(r)
	}
}

// planErrors splits plan.Execute's joined error into its steps' errors.
func planErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
