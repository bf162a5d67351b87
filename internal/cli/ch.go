package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/metrics"
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

// servePprof serves net/http/pprof at addr (ch query --pprof-addr) until stop.
func servePprof(env Env, addr string) (stop func(), err error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, usagef("--pprof-addr %q: want HOST:PORT such as 127.0.0.1:6060", addr)
	}
	addr = metrics.LoopbackDefault(addr)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usagef("--pprof-addr: %v", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	if !metrics.IsLoopback(addr) {
		fmt.Fprintf(env.Stderr, "dbmeter: warning: --pprof-addr %s is not a loopback address: anyone who can reach this machine can profile dbmeter\n", addr)
	}
	fmt.Fprintf(env.Stderr, "dbmeter: pprof at http://%s/debug/pprof/\n", ln.Addr())
	return func() { srv.Close() }, nil
}
