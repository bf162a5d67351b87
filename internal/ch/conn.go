package ch

import (
	"errors"

	chgo "github.com/ClickHouse/ch-go"
	clickhouse "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/dbmeter/dbmeter/internal/load"
)

// ConnError marks the client libraries' own "connection is closed"
// sentinels as load.KindConnection, which load.Classify, knowing no driver,
// would file as other: ch-go's closed client and clickhouse-go v2's closed
// connection. Every other error goes to load.Classify unchanged; an error
// that already carries a kind keeps it.
func ConnError(err error) error {
	if err == nil {
		return nil
	}
	var k interface{ ErrorKind() string }
	if errors.As(err, &k) {
		return err
	}
	if errors.Is(err, chgo.ErrClosed) || errors.Is(err, clickhouse.ErrConnectionClosed) {
		return load.WithKind(err, load.KindConnection)
	}
	return err
}
