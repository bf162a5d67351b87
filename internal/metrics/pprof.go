package metrics

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// ServePprof serves net/http/pprof at addr (ch query --pprof-addr) until
// stop, so that dbmeter itself can be profiled while it runs; an empty
// addr serves nothing. Its messages name addr {PprofAddr}, for the CLI to
// spell. It says on stderr where, and warns when addr is
// reachable from other machines: a profile endpoint shows the command line
// and lets anyone load the CPU.
func ServePprof(addr string, stderr io.Writer) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, usage.Errorf("{PprofAddr} %q: want HOST:PORT such as 127.0.0.1:6060", addr)
	}
	addr = LoopbackDefault(addr)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usage.Errorf("{PprofAddr}: %v", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	// Serve returns ErrServerClosed after Close; a broken listener only
	// loses the profiles, and the run must not stop for it.
	go srv.Serve(ln) //nolint:errcheck
	if !IsLoopback(addr) {
		fmt.Fprintf(stderr, "dbmeter: warning: {PprofAddr} %s is not a loopback address: anyone who can reach this machine can profile dbmeter\n", addr)
	}
	fmt.Fprintf(stderr, "dbmeter: pprof at http://%s/debug/pprof/\n", ln.Addr())
	return func() { srv.Close() }, nil
}
