package ch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// Reach is how dbmeter first reaches a ClickHouse server: its DSN and how
// long to wait for an answer.
type Reach struct {
	DSN            DSN
	ConnectTimeout time.Duration
}

// Version asks the server its version within ConnectTimeout
// (ServerVersion) and, when it cannot, says what to check, as pg's
// connection errors do. It names the settings as {DSN} and
// {ConnectTimeout}.
func (r Reach) Version(ctx context.Context) (Version, error) {
	if r.ConnectTimeout <= 0 {
		return Version{}, usage.Errorf("{ConnectTimeout} must be positive")
	}
	ctx, cancel := context.WithTimeout(ctx, r.ConnectTimeout)
	defer cancel()
	v, err := ServerVersion(ctx, r.DSN)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return v, fmt.Errorf("ClickHouse at %s did not answer within {ConnectTimeout} %s: check the host and port (the native TCP port, 9000 by default, not the HTTP 8123), and any firewall", r.DSN.Addr, r.ConnectTimeout)
	}
	if err != nil {
		return v, connectError(r.DSN, err)
	}
	return v, nil
}

// connectError says what to check when the first contact with a server
// fails. The server's codes are matched in the message: clickhouse-go v1,
// which asks the version, has its own exception type.
func connectError(dsn DSN, err error) error {
	where := "ClickHouse at " + dsn.Addr
	msg := err.Error()
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("cannot connect to %s: connection refused: is ClickHouse running and listening there, on its native TCP port (9000 by default)? ({DSN}, $DBMETER_CLICKHOUSE_DSN)", where)
	case errors.As(err, &dnsErr):
		return fmt.Errorf("cannot connect to %s: unknown host %q: check the host name in {DSN} ($DBMETER_CLICKHOUSE_DSN)", where, dnsErr.Name)
	case strings.Contains(msg, "code: 193,") || strings.Contains(msg, "code: 516,") || strings.Contains(msg, "code: 192,"):
		// 193 wrong password, 516 authentication failed, 192 unknown user
		return fmt.Errorf("cannot connect to %s: %s: check the user and password in {DSN} ($DBMETER_CLICKHOUSE_DSN)", where, serverMessage(msg))
	case strings.Contains(msg, "code: 81,"):
		return fmt.Errorf("cannot connect to %s: %s: create it or name another in {DSN} ($DBMETER_CLICKHOUSE_DSN)", where, serverMessage(msg))
	}
	return err
}

// serverMessage is the text after a ClickHouse exception's "message: ".
func serverMessage(msg string) string {
	if _, m, ok := strings.Cut(msg, "message: "); ok {
		return m
	}
	return msg
}

// TooOldForModern asks the ClickHouse at dsn its version within timeout
// and says whether it is older than the modern clients take
// (MinModernServer). A server that cannot be asked (down, a bad DSN) is
// not called old: what is wrong with it is said when it is used.
func TooOldForModern(ctx context.Context, dsn string, timeout time.Duration) (Version, bool) {
	d, err := ParseDSN(dsn)
	if err != nil {
		return Version{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	v, err := ServerVersion(ctx, d)
	return v, err == nil && v.Less(MinModernServer)
}
