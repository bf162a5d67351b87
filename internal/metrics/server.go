package metrics

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Server serves Metrics over HTTP at /metrics.
type Server struct {
	srv *http.Server
	ln  net.Listener
}

// Serve listens on addr at once, so a bad or busy address fails before any
// run, and serves m until Close.
func Serve(addr string, m *Metrics) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	s := &Server{ln: ln, srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}}
	// Serve returns ErrServerClosed after Close; any other error means the
	// listener broke, which scrapes then show, and a run must not stop for it.
	go s.srv.Serve(ln) //nolint:errcheck

	return s, nil
}

// Addr is the address the server listens on, with the port chosen when
// addr asked for port 0.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is where a Prometheus scrape config points.
func (s *Server) URL() string { return "http://" + s.Addr() + "/metrics" }

// Close lets a scrape in progress finish, briefly, then stops the server.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return s.srv.Shutdown(ctx)
}

// IsLoopback says whether addr (host:port) only listens on this machine. An
// empty host listens on every interface, so it is not loopback.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// LoopbackDefault binds ":PORT" to 127.0.0.1 rather than every interface:
// dbmeter's endpoints are for the machine it runs on unless told otherwise.
func LoopbackDefault(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil && host == "" {
		return "127.0.0.1" + addr
	}
	return addr
}
