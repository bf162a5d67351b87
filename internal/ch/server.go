package ch

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"time"

	clickhousev1 "github.com/ClickHouse/clickhouse-go" // v1: the one protocol every server version speaks

	"github.com/dbmeter/dbmeter/internal/usage"
)

// V1Driver is clickhouse-go v1's database/sql driver name. dbmeter links a
// copy of v1 patched to register under this name (third_party/clickhouse-go-v1)
// because v2 registers "clickhouse" too and database/sql panics on the
// duplicate: sql.Open("clickhouse", …) is v2.
const V1Driver = clickhousev1.DriverName

// ServerVersion asks the server for its version over the native protocol
// with clickhouse-go v1, which talks to servers old and new alike, so that a
// client too new for the server is refused before it sends anything. It
// also refuses, in one line naming it, a DSN key that is neither a client
// parameter (ClientKeys) nor a setting the server knows: sent as an
// important setting it would fail every query of the run.
//
// A deadline on ctx also bounds the connection: it becomes v1's connect and
// read timeouts, so a server that accepts and never answers is given up on.
func ServerVersion(ctx context.Context, d DSN) (Version, error) {
	settings := d.Settings
	d = d.Admin()
	if deadline, ok := ctx.Deadline(); ok {
		left := max(time.Until(deadline), time.Millisecond)
		if d.DialTimeout == 0 {
			d.DialTimeout = left
		}
		if d.ReadTimeout == 0 {
			d.ReadTimeout = left
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
	v, err := ParseVersion(s)
	if err != nil {
		return v, err
	}
	return v, unknownSettings(ctx, db, d.Addr, settings)
}

// unknownSettings refuses the first of settings the server does not know.
func unknownSettings(ctx context.Context, db *sql.DB, addr string, settings url.Values) error {
	if len(settings) == 0 {
		return nil
	}
	names := sortedKeys(settings)
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(n) + "'"
	}
	rows, err := db.QueryContext(ctx, "SELECT name FROM system.settings WHERE name IN ("+strings.Join(quoted, ", ")+")")
	if err != nil {
		return fmt.Errorf("look up the DSN's settings on ClickHouse %s: %w", addr, err)
	}
	defer rows.Close()
	known := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return fmt.Errorf("look up the DSN's settings on ClickHouse %s: %w", addr, err)
		}
		known[n] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("look up the DSN's settings on ClickHouse %s: %w", addr, err)
	}
	for _, n := range names {
		if !known[n] {
			return usage.Errorf("DSN key %s is neither a client parameter (%s) nor a setting ClickHouse %s knows: drop it", n, strings.Join(ClientKeys, ", "), addr)
		}
	}
	return nil
}
