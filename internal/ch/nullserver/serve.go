package nullserver

import (
	"context"
	"fmt"
	"io"
)

// Serve runs a null-server until ctx is done (the user's interrupt),
// saying on w where to point clients when it starts and what it received
// when it stops. It names the clients' settings as {DSN} and {HTTPURL},
// for the CLI to spell as ch insert's and ch query's flags.
func Serve(ctx context.Context, o Options, w io.Writer) error {
	srv, err := Start(o)
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(w, "null-server (a protocol stand-in, not a ClickHouse) on %s\n  {DSN} %s\n  {HTTPURL} %s\n", srv.Addr(), srv.DSN(), srv.HTTPURL())
	<-ctx.Done()
	fmt.Fprintf(w, "null-server: %s\n", srv.Log().Totals())
	return nil
}
