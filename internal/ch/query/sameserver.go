package query

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/redact"
)

// identityQuery is what both protocols are asked: 18.16 has no server
// UUID, but a host name, a version and a start time that differ between
// two servers on one host (their uptimes differ by the seconds between
// their starts).
const identityQuery = "SELECT hostName(), version(), uptime()"

type identity struct {
	host, version string
	uptime        int64
}

// SameServer checks that the HTTP interface at httpURL belongs to the
// server the native DSN names, so that a URL dbmeter derived and the user
// never wrote is not benchmarked beside it by mistake. Its errors name the
// URL; redacted, they are one line.
func SameServer(ctx context.Context, d ch.DSN, httpURL string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	start := time.Now()
	native, err := nativeIdentity(ctx, d)
	if err != nil {
		return err
	}
	web, err := httpIdentity(ctx, d, httpURL)
	if err != nil {
		return err
	}
	// Both uptimes are whole seconds read moments apart.
	slack := int64(time.Since(start).Seconds()) + 2
	if native.host != web.host || native.version != web.version || abs(native.uptime-web.uptime) > slack {
		return fmt.Errorf("%s is another server than %s: host %s, version %s, up %d s over http; host %s, version %s, up %d s natively",
			redact.String(httpURL), d.Addr, web.host, web.version, web.uptime, native.host, native.version, native.uptime)
	}
	return nil
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func nativeIdentity(ctx context.Context, d ch.DSN) (identity, error) {
	db, err := sql.Open(ch.V1Driver, d.V1())
	if err != nil {
		return identity{}, fmt.Errorf("connect to ClickHouse %s: %w", d.Addr, err)
	}
	defer db.Close()
	var id identity
	if err := db.QueryRowContext(ctx, identityQuery).Scan(&id.host, &id.version, &id.uptime); err != nil {
		return identity{}, fmt.Errorf("ask ClickHouse %s who it is: %w", d.Addr, err)
	}
	return id, nil
}

func httpIdentity(ctx context.Context, d ch.DSN, httpURL string) (identity, error) {
	shown := redact.String(httpURL)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, httpURL, strings.NewReader(identityQuery+" FORMAT TabSeparated"))
	if err != nil {
		return identity{}, fmt.Errorf("%s: %w", shown, err)
	}
	req.Header.Set("X-ClickHouse-User", d.User)
	req.Header.Set("X-ClickHouse-Key", d.Password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return identity{}, fmt.Errorf("ask %s who it is: %w", shown, err)
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(io.LimitReader(resp.Body, 4096)).ReadString('\n')
	if resp.StatusCode != http.StatusOK {
		return identity{}, fmt.Errorf("ask %s who it is: HTTP %d: %s", shown, resp.StatusCode, strings.TrimSpace(line))
	}
	f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
	if err != nil || len(f) != 3 {
		return identity{}, fmt.Errorf("ask %s who it is: not a ClickHouse answer: %q", shown, strings.TrimSpace(line))
	}
	up, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return identity{}, fmt.Errorf("ask %s who it is: not a ClickHouse answer: %q", shown, strings.TrimSpace(line))
	}
	return identity{host: f[0], version: f[1], uptime: up}, nil
}
