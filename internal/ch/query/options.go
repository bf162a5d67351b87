package query

import (
	"fmt"
	"net/url"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// Protocol is the wire a client talks: ClickHouse's native TCP protocol or
// its HTTP interface.
type Protocol string

// Protocols.
const (
	Native Protocol = "native"
	HTTP   Protocol = "http"
)

// Decode says how a result is walked once it is in the client.
type Decode string

// Decode modes.
const (
	// Row walks each row and reads every column of it, picking each
	// column's type per value, as row-oriented APIs (rows.Scan) do.
	Row Decode = "row"
	// Column walks each column's values contiguously, picking the type once
	// per column and block.
	Column Decode = "column"
)

// Pool holds the connection-pool knobs. They map onto database/sql's
// SetMaxOpenConns, SetMaxIdleConns, SetConnMaxIdleTime and
// SetConnMaxLifetime, onto clickhouse-go v2's Options, onto
// http.Transport, and onto dbmeter's own small pool for ch-go. A client
// that cannot honour a knob says so in Client.Ignores.
type Pool struct {
	MaxOpen     int           // most connections open at once; 0: no limit
	MaxIdle     int           // most idle connections kept; 0: none, every query dials
	IdleTimeout time.Duration // close connections idle this long; 0: never
	Lifetime    time.Duration // close connections this old; 0: never
}

// The pool's knobs in words, as a client's Ignores names them: the
// warning that says so is kept in the result, which a later report reads
// without the command that could spell its flags.
const (
	KnobMaxOpen     = "most open connections"
	KnobMaxIdle     = "most idle connections"
	KnobIdleTimeout = "idle timeout"
	KnobLifetime    = "connection lifetime"
)

// DefaultPool is database/sql's own default: no limit on open connections,
// two idle ones kept, no timeouts.
func DefaultPool() Pool { return Pool{MaxIdle: 2} }

// Validate reports the first knob that cannot work.
func (p Pool) Validate() error {
	switch {
	case p.MaxOpen < 0:
		return fmt.Errorf("{MaxOpen} must not be negative, got %d", p.MaxOpen)
	case p.MaxIdle < 0:
		return fmt.Errorf("{MaxIdle} must not be negative, got %d", p.MaxIdle)
	case p.IdleTimeout < 0:
		return fmt.Errorf("{IdleTimeout} must not be negative, got %s", p.IdleTimeout)
	case p.Lifetime < 0:
		return fmt.Errorf("{Lifetime} must not be negative, got %s", p.Lifetime)
	}
	return nil
}

// Options configure one Querier.
type Options struct {
	DSN ch.DSN
	// HTTPURL is the base URL of the server's HTTP interface
	// (http://host:8123), for clients talking HTTP.
	HTTPURL  string
	Protocol Protocol
	Decode   Decode
	// Prepared sends parameters through the client's own binding or prepare
	// API; false inlines them into the SQL text before the client sees it.
	Prepared bool
	Pool     Pool
	// Worker configures the clients that run as worker processes.
	Worker Worker
	// LogQueries asks the server to log every query (log_queries=1), for
	// the server's own figures; set it with LoggingQueries.
	LogQueries bool
}

// LoggingQueries returns o with LogQueries set: the native paths send
// log_queries=1 as a DSN setting, the http path as a URL parameter.
func (o Options) LoggingQueries() Options {
	o.LogQueries = true
	settings := url.Values{}
	for k, v := range o.DSN.Settings {
		settings[k] = v
	}
	settings.Set("log_queries", "1")
	o.DSN.Settings = settings
	return o
}

// Worker configures the clients that run outside dbmeter as worker
// processes (internal/extworker).
type Worker struct {
	// Cmd is the command of the client "worker" (--worker-cmd).
	Cmd string
	// Timeout is how long a worker may take to answer before it counts as
	// hung (0: extworker.DefaultOpTimeout).
	Timeout time.Duration
	// Getenv picks the reference workers' interpreters.
	Getenv func(string) string
}

// Validate reports the first setting that cannot work.
func (o Options) Validate() error {
	if o.Protocol != Native && o.Protocol != HTTP {
		return fmt.Errorf("protocol must be native or http, got %q", o.Protocol)
	}
	if o.Decode != Row && o.Decode != Column {
		return fmt.Errorf("decode must be row or column, got %q", o.Decode)
	}
	if o.Protocol == HTTP && o.HTTPURL == "" {
		return fmt.Errorf("the http protocol needs the server's HTTP address")
	}
	return o.Pool.Validate()
}
