package ch

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"net/url"
	"strconv"
	"time"

	clickhousev1 "github.com/ClickHouse/clickhouse-go" // v1: the one protocol every server version speaks
)

// V1Driver is clickhouse-go v1's database/sql driver name. dbmeter links a
// copy of v1 patched to register under this name (third_party/clickhouse-go-v1)
// because v2 registers "clickhouse" too and database/sql panics on the
// duplicate: sql.Open("clickhouse", …) is v2.
const V1Driver = clickhousev1.DriverName

// ServerVersion asks the server for its version over the native protocol
// with clickhouse-go v1, which talks to servers old and new alike, so that a
// client too new for the server is refused before it sends anything.
//
// A deadline on ctx also bounds the connection: it becomes v1's connect and
// read timeouts, so a server that accepts and never answers is given up on.
func ServerVersion(ctx context.Context, d DSN) (Version, error) {
	if deadline, ok := ctx.Deadline(); ok {
		secs := strconv.FormatFloat(max(time.Until(deadline).Seconds(), 0.001), 'f', 3, 64)
		d.Settings = maps.Clone(d.Settings)
		if d.Settings == nil {
			d.Settings = url.Values{}
		}
		for _, k := range []string{"timeout", "read_timeout"} {
			if d.Settings.Get(k) == "" {
				d.Settings.Set(k, secs)
			}
		}
	}
	db, err := sql.Open(V1Driver, d.V1())
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
