package standin

import "fmt"

// DSN is the native address a client gives to reach the stand-in's
// default database; under TLS it asks for TLS without verifying the
// self-signed certificate.
func (s *Server) DSN() string {
	if s.opts.TLS {
		return "clickhouse://" + s.Addr() + "/default?secure=true&skip_verify=true"
	}
	return "clickhouse://" + s.Addr() + "/default"
}

// HTTPURL is the stand-in's HTTP interface, on the same address.
func (s *Server) HTTPURL() string {
	if s.opts.TLS {
		return "https://" + s.Addr()
	}
	return "http://" + s.Addr()
}

// String is the totals in one line.
func (t Totals) String() string {
	return fmt.Sprintf("%d queries (%d refused), %d INSERTs acknowledged with %d rows, %d queries over TLS",
		t.Queries, t.Errors, t.InsertsAcked, t.RowsAcked, t.TLSQueries)
}
