package ch

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// Reach.Version refuses a timeout that is not positive as the user's
// mistake, and says what to check for a server that refuses the
// connection or never answers, naming the settings as {Field}.
func TestReachVersion(t *testing.T) {
	t.Parallel()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0") // accepts, never answers
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	tests := []struct {
		name    string
		addr    string
		timeout time.Duration
		want    string
		usage   bool
	}{
		{"no timeout", closedAddr, 0, "{ConnectTimeout} must be positive", true},
		{"negative timeout", closedAddr, -time.Second, "{ConnectTimeout} must be positive", true},
		{"refused", closedAddr, 2 * time.Second, "connection refused: is ClickHouse running and listening there, on its native TCP port (9000 by default)? ({DSN}, $DBMETER_CLICKHOUSE_DSN)", false},
		{"never answers", silent.Addr().String(), 200 * time.Millisecond, "did not answer within {ConnectTimeout} 200ms: check the host and port", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Reach{DSN: DSN{Addr: tt.addr, Database: "default"}, ConnectTimeout: tt.timeout}.Version(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) || usage.Is(err) != tt.usage {
				t.Errorf("Version: %v (usage %v); want %q (usage %v)", err, usage.Is(err), tt.want, tt.usage)
			}
		})
	}
}

// The server's refusals, as clickhouse-go v1 words them, say what in
// {DSN} to check; another error is left as it is.
func TestConnectError(t *testing.T) {
	t.Parallel()
	d := DSN{Addr: "db:9000"}
	other := errors.New("code: 999, message: something else")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"wrong password", errors.New("code: 193, message: Wrong password for user u"), "cannot connect to ClickHouse at db:9000: Wrong password for user u: check the user and password in {DSN}"},
		{"unknown user", errors.New("code: 192, message: Unknown user u"), "Unknown user u: check the user and password in {DSN}"},
		{"no database", errors.New("code: 81, message: Database nope doesn't exist"), "Database nope doesn't exist: create it or name another in {DSN}"},
		{"unknown host", &net.OpError{Op: "dial", Err: &net.DNSError{Name: "nohost.invalid", Err: "no such host"}}, `unknown host "nohost.invalid": check the host name in {DSN}`},
		{"anything else", other, other.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := connectError(d, tt.err).Error(); !strings.Contains(got, tt.want) {
				t.Errorf("connectError = %q, want %q", got, tt.want)
			}
		})
	}
}

// A server that cannot be asked is not called too old: not a DSN, or
// nothing listening.
func TestTooOldForModernUnasked(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	for _, dsn := range []string{"garbage://x", "clickhouse://" + closed + "/default"} {
		if v, old := TooOldForModern(context.Background(), dsn, time.Second); old {
			t.Errorf("%s: called too old (%s)", dsn, v)
		}
	}
}
