package driver

import (
	"context"
	"net"
	"sync"
	"time"
)

// An Interrupter is a Session that can be stopped from another goroutine:
// Interrupt closes its socket, so a statement blocked on the server
// returns at once. Clients run statements without a cancellable context
// (pgbench has none, and drivers pay a goroutine or a timer per statement
// for one) and use Interrupt when the run is cancelled.
type Interrupter interface {
	Interrupt()
}

// sockets remembers the connection a driver dialled, so that it can be
// closed from another goroutine. It is safe for concurrent use.
type sockets struct {
	mu          sync.Mutex
	conn        net.Conn
	interrupted bool
}

var _ Interrupter = (*sockets)(nil)

// dial dials like the drivers' default dialers and remembers the result.
func (s *sockets) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d := net.Dialer{KeepAlive: 5 * time.Minute}
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.interrupted {
		c.Close()
		return nil, context.Canceled
	}
	// A driver may dial more than once (TLS refused, then plain): the last
	// connection is the one in use.
	s.conn = c
	return c, nil
}

// Interrupt closes the connection.
func (s *sockets) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.interrupted = true
	if s.conn != nil {
		s.conn.Close()
	}
}

// pqDialer adapts sockets to lib/pq's Dialer and DialerContext.
type pqDialer struct{ s *sockets }

func (d pqDialer) Dial(network, addr string) (net.Conn, error) {
	return d.s.dial(context.Background(), network, addr)
}

func (d pqDialer) DialTimeout(network, addr string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.s.dial(ctx, network, addr)
}

func (d pqDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return d.s.dial(ctx, network, addr)
}
