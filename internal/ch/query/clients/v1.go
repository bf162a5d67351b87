package clients

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	clickhouse "github.com/ClickHouse/clickhouse-go" // v1, patched to register as ch.V1Driver (third_party)

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/query"
)

// openV1 is clickhouse-go v1 through database/sql: the one native client
// that talks to every server version. Rows come one at a time through
// rows.Scan. "Prepared" is db.Prepare once and stmt.Query per query; v1
// keeps the text and interpolates the arguments itself at each execution
// (ClickHouse 18.16 has no server-side prepared statements).
func openV1(ctx context.Context, o query.Options) (query.Querier, error) {
	dsn := o.DSN.V1()
	// The driver value is only reachable through a *sql.DB; this one opens
	// no connection.
	probe, err := sql.Open(ch.V1Driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("open clickhouse-go v1: %w", err)
	}
	drv := probe.Driver()
	probe.Close()
	return query.NewSQL(query.DSNConnector(drv, dsn), o, true, isV1Exception).SendQueryIDs(clickhouse.WithQueryID), nil
}

func isV1Exception(err error) bool {
	var e *clickhouse.Exception
	return errors.As(err, &e)
}
