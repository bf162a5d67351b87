// Package chv2 holds the two clickhouse-go v2 client paths of `dbmeter ch
// query`: the native API (conn.Query and rows.Scan) and v2's database/sql
// driver (registered as "clickhouse"; dbmeter's v1 copy registers as
// ch.V1Driver so both can be linked).
package chv2

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"reflect"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/ClickHouse/clickhouse-go/v2/lib/proto"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/query"
)

// forever stands for "no limit" where v2 reads 0 as a default.
const forever = 100 * 365 * 24 * time.Hour

// Ignores lists the pool knobs v2 cannot honour: it reads a max-idle of 0
// as its default 5 and has no idle timeout.
func Ignores(p query.Pool) []string {
	var out []string
	if p.MaxIdle == 0 {
		out = append(out, query.KnobMaxIdle)
	}
	if p.IdleTimeout > 0 {
		out = append(out, query.KnobIdleTimeout)
	}
	return out
}

// options is v2's options for o: the DSN's (TLS, compression, timeouts,
// settings) through the counting dialer d, and the pool knobs. Over HTTP
// the address, scheme and path come from --http-url, and TLS is the
// transport's: the dialer stays plain.
func options(o query.Options, d *query.Dialer) (*clickhouse.Options, error) {
	opts, err := o.DSN.V2(d.DialContext)
	if err != nil {
		return nil, err
	}
	opts.MaxOpenConns, opts.MaxIdleConns, opts.ConnMaxLifetime = o.Pool.MaxOpen, o.Pool.MaxIdle, o.Pool.Lifetime
	if opts.DialTimeout == 0 {
		opts.DialTimeout = 10 * time.Second
	}
	if opts.MaxOpenConns == 0 {
		opts.MaxOpenConns = 1 << 16
	}
	if opts.ConnMaxLifetime == 0 {
		opts.ConnMaxLifetime = forever
	}
	if o.Protocol == query.HTTP {
		u, err := url.Parse(o.HTTPURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("{HTTPURL} %q is not an http:// or https:// address", o.HTTPURL)
		}
		opts.Protocol, opts.Addr, opts.HttpUrlPath = clickhouse.HTTP, []string{u.Host}, u.Path
		opts.DialContext = func(ctx context.Context, addr string) (net.Conn, error) { return d.DialContext(ctx, "tcp", addr) }
		opts.TLS = nil
		if u.Scheme == "https" {
			// v2 picks https when TLS is set; the DSN's skip_verify and
			// ca_file apply to it too.
			if opts.TLS, err = o.DSN.TLSConfig(); err != nil {
				return nil, err
			}
			if opts.TLS == nil {
				opts.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
			}
		}
	}
	return opts, nil
}

// native is clickhouse-go v2's own API. "Prepared" passes the arguments to
// conn.Query, which binds them into the text on the client (ClickHouse has
// no server-side prepared statements); otherwise dbmeter inlines them. Rows come through rows.Scan: v2 keeps its column
// blocks to itself, so column decode copies scanned rows into columns.
type native struct {
	conn   driver.Conn
	dialer *query.Dialer
	decode query.Decode
}

// OpenNative opens the v2 native-API path.
func OpenNative(_ context.Context, o query.Options) (query.Querier, error) {
	d := query.NewDialer()
	opts, err := options(o, d)
	if err != nil {
		return nil, err
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("open clickhouse-go v2: %w", err)
	}
	return &native{conn: conn, dialer: d, decode: o.Decode}, nil
}

func (q *native) Query(ctx context.Context, text string, args ...any) (query.QueryStats, error) {
	if id := query.QueryID(ctx); id != "" {
		ctx = withQueryID(ctx, id)
	}
	rows, err := q.conn.Query(ctx, text, args...)
	if err != nil {
		return query.QueryStats{}, mark(err)
	}
	defer rows.Close()
	cts := rows.ColumnTypes()
	types, dbTypes := make([]reflect.Type, len(cts)), make([]string, len(cts))
	for i, ct := range cts {
		types[i], dbTypes[i] = ct.ScanType(), ct.DatabaseTypeName()
	}
	st, err := query.ScanRows(rows, types, dbTypes, q.decode)
	if err != nil {
		return st, mark(err)
	}
	return st, mark(rows.Close())
}

func (q *native) Pool() query.PoolStats { return q.dialer.Stats() }
func (q *native) Close() error          { return q.conn.Close() }

// OpenSQL opens v2's database/sql path: the pool is database/sql's, with
// the knobs set on it. "Prepared" passes the arguments to db.QueryContext,
// which v2 binds on the client: v2's db.Prepare is its batch INSERT API
// and refuses a SELECT ("invalid INSERT query", clickhouse-go#1203).
func OpenSQL(_ context.Context, o query.Options) (query.Querier, error) {
	opts, err := options(o, query.NewDialer())
	if err != nil {
		return nil, err
	}
	return query.NewSQL(clickhouse.Connector(opts), o, false, isException).SendQueryIDs(withQueryID), nil
}

func isException(err error) bool {
	var e *proto.Exception
	return errors.As(err, &e)
}

func mark(err error) error {
	if err != nil && isException(err) {
		return query.ServerError(err)
	}
	return ch.Mark(err)
}

// withQueryID is v2's way to send a query id: a query option in the
// context.
func withQueryID(ctx context.Context, id string) context.Context {
	return clickhouse.Context(ctx, clickhouse.WithQueryID(id))
}
