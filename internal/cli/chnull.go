package cli

import (
	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/ch/nullserver"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/standin"
)

func newCHNullServerCmd(env Env) *cobra.Command {
	o := nullserver.Options{Listen: "127.0.0.1:9440"}
	cmd := &cobra.Command{
		Use:   "null-server",
		Short: "Serve ClickHouse's protocols with no database behind them, to measure a client's own cost",
		Long: `null-server answers ClickHouse's native protocol (revision 54460, the one
clickhouse-go v2 and ch-go speak, and older ones for clickhouse-go v1) and
its HTTP interface on one address. It is not a ClickHouse: it accepts
INSERTs and discards their rows after decoding and counting them (like a
table with ENGINE = Null), answers SELECTs with generated values of the
right types and row counts, and understands only the statements dbmeter's
client paths send. Point ch insert or ch query at it to measure what a
client library costs per row with the server taken out.

It starts with dbmeter's insert table (` + insert.DefaultDatabase + `.event) and query data
set (` + query.DefaultDataset().Database + `), so runs need no --create. With --tls it serves TLS
only, with a self-signed certificate made at start: give clients
secure=true&skip_verify=true, or ca_file with the file --tls-cert writes;
dbmeter's own http client verifies against the system's roots: give it that
file as SSL_CERT_FILE.`,
		Example: `  dbmeter ch null-server --listen 127.0.0.1:9440 &
  dbmeter ch insert --dsn clickhouse://127.0.0.1:9440/default --clients ch-go,clickhouse-go-column --duration 10s
  dbmeter ch query --dsn clickhouse://127.0.0.1:9440/default --http-url http://127.0.0.1:9440 --clients http,ch-go --preset select10k`,
		Args: noArgs,
	}
	declare(cmd.Flags(),
		opt{"Listen", "listen", "", &o.Listen, "address for both the native protocol and HTTP"},
		opt{"TLS", "tls", "", &o.TLS, "serve TLS only, with a self-signed certificate for 127.0.0.1 and localhost"},
		opt{"CertOut", "tls-cert", "", &o.CertOut, "with --tls: write the certificate (PEM) to this file, for a DSN's ca_file"})
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		// The banner names the flags of the commands that use the server.
		return nullserver.Serve(cmd.Context(), o, spellingWriter{env.Stdout, map[string]string{"DSN": "--dsn", "HTTPURL": "--http-url"}})
	})
	return cmd
}

// startNullServer starts a stand-in holding dbmeter's own tables, for
// the tests and the studies that need a server.
func startNullServer(listen string, useTLS bool) (*standin.Server, error) {
	return nullserver.Start(nullserver.Options{Listen: listen, TLS: useTLS})
}
