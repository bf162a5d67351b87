package ch

import (
	"errors"

	chgo "github.com/ClickHouse/ch-go"
	clickhousev1 "github.com/ClickHouse/clickhouse-go"
	clickhouse "github.com/ClickHouse/clickhouse-go/v2"
	v2proto "github.com/ClickHouse/clickhouse-go/v2/lib/proto"

	"github.com/dbmeter/dbmeter/internal/load"
)

// Mark gives the client libraries' own errors the kind load.Classify,
// knowing no driver, cannot see: a server exception (v1, v2, ch-go) is
// load.KindServer; ch-go's closed client and clickhouse-go v2's closed
// connection are load.KindConnection. Every other error goes to
// load.Classify unchanged; an error that already carries a kind keeps it.
func Mark(err error) error {
	if err == nil {
		return nil
	}
	var k interface{ ErrorKind() string }
	if errors.As(err, &k) {
		return err
	}
	var e1 *clickhousev1.Exception
	var e2 *v2proto.Exception
	switch {
	case errors.As(err, &e1), errors.As(err, &e2), chgo.IsException(err):
		return load.WithKind(err, load.KindServer)
	case errors.Is(err, chgo.ErrClosed), errors.Is(err, clickhouse.ErrConnectionClosed):
		return load.WithKind(err, load.KindConnection)
	case errors.Is(err, clickhouse.ErrAcquireConnTimeout):
		// v2's pool had no connection free within its DialTimeout.
		return load.WithKind(err, load.KindTimeout)
	}
	return err
}
