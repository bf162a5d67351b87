package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/ch/nullserver"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/standin"
	"github.com/dbmeter/dbmeter/internal/usage"
)

func newCHNullServerCmd(env Env) *cobra.Command {
	o := nullserver.Options{Listen: "127.0.0.1:9440"}
	cmd := &cobra.Command{
		Use:   "null-server",
		Short: "Serve ClickHouse's protocols with no database behind them, to measure a client's own cost",
		Long: strings.NewReplacer("{insert-database}", insert.DefaultDatabase, "{query-database}", query.DefaultDataset().Database).
			Replace(help("ch-null-server")),
		Example: help("ch-null-server-example"),
		Args:    noArgs,
	}
	declare(cmd.Flags(),
		opt{"Listen", "listen", "", &o.Listen, "address for both the native protocol and HTTP"},
		opt{"TLS", "tls", "", &o.TLS, "serve TLS only, with a self-signed certificate for 127.0.0.1 and localhost"},
		opt{"CertOut", "tls-cert", "", &o.CertOut, "with --tls: write the certificate (PEM) to this file, for a DSN's ca_file"})
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		// The banner names the flags of the commands that use the server.
		return nullserver.Serve(cmd.Context(), o, &usage.Writer{W: env.Stdout, Spelling: map[string]string{"DSN": "--dsn", "HTTPURL": "--http-url"}})
	})
	return cmd
}

// startNullServer starts a stand-in holding dbmeter's own tables, for
// the tests and the studies that need a server.
func startNullServer(listen string, useTLS bool) (*standin.Server, error) {
	return nullserver.Start(nullserver.Options{Listen: listen, TLS: useTLS})
}
