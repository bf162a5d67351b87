package ch

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/ClickHouse/clickhouse-go" // v1's database/sql driver "clickhouse": the one protocol every server version speaks
)

// ServerVersion asks the server for its version over the native protocol
// with clickhouse-go v1, which talks to servers old and new alike, so that a
// client too new for the server is refused before it sends anything.
func ServerVersion(ctx context.Context, d DSN) (Version, error) {
	db, err := sql.Open("clickhouse", d.V1())
	if err != nil {
		return Version{}, fmt.Errorf("connect to ClickHouse %s: %w", d.Addr, err)
	}
	defer db.Close()
	var s string
	if err := db.QueryRowContext(ctx, "SELECT version()").Scan(&s); err != nil {
		return Version{}, fmt.Errorf("ask ClickHouse %s for its version: %w", d.Addr, err)
	}
	return ParseVersion(s)
}
