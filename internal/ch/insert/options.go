package insert

import (
	"context"
	"net"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/extworker"
)

// Options is what every client path is opened with.
type Options struct {
	DSN ch.DSN
	// Batch is the rows per block; clients that size their own buffers
	// (clickhouse-go v1's block_size) are told it.
	Batch int
	// BlocksPerInsert is how many blocks stream through one INSERT; 1 (or
	// 0) sends each block as an INSERT of its own.
	BlocksPerInsert int
	// NoDelay sets TCP_NODELAY on the client's connections (Go's default is
	// on: Nagle's algorithm off).
	NoDelay bool
	// Workers holds the worker processes of an external client
	// (Client.External), made by the run; nil for Go clients.
	Workers *extworker.Pool
}

// perInsert is BlocksPerInsert with its zero value made 1.
func (o Options) perInsert() int { return max(o.BlocksPerInsert, 1) }

// dialTimeout bounds connecting, as a benchmark should fail fast on a wrong
// address rather than wait for the kernel's timeout.
const dialTimeout = 10 * time.Second

// dial connects to addr and sets TCP_NODELAY as asked: the one dialer
// given to every client that accepts one (with the DSN's TLS on top, see
// ch.DSN.Dial).
func (o Options) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d := net.Dialer{Timeout: o.dialTimeout()}
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		if err := tc.SetNoDelay(o.NoDelay); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// dialTimeout is the DSN's dial_timeout, or dbmeter's.
func (o Options) dialTimeout() time.Duration {
	if o.DSN.DialTimeout > 0 {
		return o.DSN.DialTimeout
	}
	return dialTimeout
}
