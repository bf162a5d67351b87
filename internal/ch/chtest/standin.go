package chtest

import (
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/standin"
)

// StandIn starts a plain protocol stand-in for the test and returns it
// with its DSN; it is closed when the test ends.
func StandIn(t *testing.T) (*standin.Server, ch.DSN) {
	t.Helper()
	srv, err := standin.Listen("127.0.0.1:0", standin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	d, err := ch.ParseDSN("clickhouse://" + srv.Addr() + "/default")
	if err != nil {
		t.Fatal(err)
	}
	return srv, d
}
