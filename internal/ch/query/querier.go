package query

import (
	"context"
	"errors"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/load"
)

// A Querier runs queries through one client path and drains every result
// in its decode mode. It owns a connection pool and is safe for concurrent
// use.
type Querier interface {
	// Query runs sql with args bound by the client (none when the caller
	// inlined them) and reads every row. A server-side failure is marked
	// load.KindServer.
	Query(ctx context.Context, sql string, args ...any) (QueryStats, error)
	// Pool reports the pool's counters since the Querier was opened.
	Pool() PoolStats
	Close() error
}

// QueryStats is what one query returned and what decoding it cost.
type QueryStats struct {
	Rows int64
	// Bytes is the size of the decoded values: 8 per 64-bit number, 4 per
	// DateTime, 2 per Date, the length of each string.
	Bytes int64
	// DecodeNs is the client CPU time spent turning the result into Go
	// values and walking them, without the time spent waiting for the
	// server or the network (see each client's file for where the line is
	// drawn).
	DecodeNs int64
	// ClientNs is the whole query by the client's own clock, where the
	// client keeps one apart from dbmeter's (an external worker): the
	// phase "client". 0: not known.
	ClientNs int64
}

// PoolStats are cumulative pool counters. A counter the client cannot
// observe is -1.
type PoolStats struct {
	Opened  int64 // connections opened
	Closed  int64 // connections closed
	SetupNs int64 // time spent opening them (dial, and handshake where the client exposes it)
	Waits   int64 // queries that waited for a free connection
	WaitNs  int64 // time they waited
}

// Sub returns the counters accumulated between from and p.
func (p PoolStats) Sub(from PoolStats) PoolStats {
	d := func(a, b int64) int64 {
		if a < 0 || b < 0 {
			return -1
		}
		return a - b
	}
	return PoolStats{
		Opened: d(p.Opened, from.Opened), Closed: d(p.Closed, from.Closed), SetupNs: d(p.SetupNs, from.SetupNs),
		Waits: d(p.Waits, from.Waits), WaitNs: d(p.WaitNs, from.WaitNs),
	}
}

// ServerError marks err as the server's refusal of a query.
func ServerError(err error) error { return load.WithKind(err, load.KindServer) }

// IsServerError reports whether err is the server refusing a query (a
// syntax error, an unknown table) rather than a transport failure.
func IsServerError(err error) bool {
	var k interface{ ErrorKind() string }
	return errors.As(err, &k) && k.ErrorKind() == load.KindServer
}

// Client describes one client path: how to open it and what it can do.
type Client struct {
	Open func(ctx context.Context, o Options) (Querier, error)
	// MinServer is the oldest server the client can talk to; zero: any.
	MinServer ch.Version
	// MinHTTPServer, when set, is the oldest server it can talk to over
	// HTTP, if that is newer than MinServer.
	MinHTTPServer ch.Version
	// DSN is what the client can take from the DSN; Prepare refuses the rest.
	DSN ch.Honours
	// Protocols it speaks; the first is its default.
	Protocols []Protocol
	// Prepare says whether Options.Prepared means anything to it.
	Prepare bool
	// Columnar says results reach dbmeter as column blocks; otherwise
	// column decode first copies scanned rows into columns.
	Columnar bool
	// Ignores lists the pool knobs (Knob*) the client cannot honour with
	// the values of p.
	Ignores func(p Pool) []string
	// External says the client runs as worker processes in another
	// language: it runs only when named, never as part of "all".
	External bool
}

// An External querier runs its queries in worker processes; the run
// records what they are and what talking to them costs.
type External interface {
	Workers() *extworker.Pool
}

// Speaks reports whether the client talks protocol p.
func (c Client) Speaks(p Protocol) bool {
	for _, q := range c.Protocols {
		if q == p {
			return true
		}
	}
	return false
}

// minServer is the oldest server c can talk to over p.
func (c Client) minServer(p Protocol) ch.Version {
	if p == HTTP && c.MinServer.Less(c.MinHTTPServer) {
		return c.MinHTTPServer
	}
	return c.MinServer
}
