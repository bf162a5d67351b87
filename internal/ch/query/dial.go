package query

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"net"
	"sync/atomic"
	"time"
)

// connCounter counts connections opened and closed and the time spent
// opening them. It is shared by every connection of one pool.
type connCounter struct {
	opened, closed, setupNs atomic.Int64
}

func (c *connCounter) stats() PoolStats {
	return PoolStats{Opened: c.opened.Load(), Closed: c.closed.Load(), SetupNs: c.setupNs.Load(), Waits: -1, WaitNs: -1}
}

// Dialer wraps net.Dialer so that every connection a client makes is
// counted and its dial timed. Clients that accept a dial function (v2,
// ch-go, net/http) get it.
type Dialer struct {
	net.Dialer
	count *connCounter
}

func NewDialer() *Dialer {
	return &Dialer{Dialer: net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}, count: &connCounter{}}
}

func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	start := time.Now()
	c, err := d.Dialer.DialContext(ctx, network, addr)
	d.count.setupNs.Add(int64(time.Since(start)))
	if err != nil {
		return nil, err
	}
	d.count.opened.Add(1)
	return &countedConn{Conn: c, count: d.count}, nil
}

// countedConn counts its first Close.
type countedConn struct {
	net.Conn
	count  *connCounter
	closed atomic.Bool
}

func (c *countedConn) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.count.closed.Add(1)
	}
	return c.Conn.Close()
}

// connector wraps a database/sql connector so that each new connection is
// counted and its setup (dial and the ClickHouse handshake) timed.
// Connections closed are derived from database/sql's own open count.
type connector struct {
	driver.Connector
	count *connCounter
}

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	start := time.Now()
	conn, err := c.Connector.Connect(ctx)
	c.count.setupNs.Add(int64(time.Since(start)))
	if err == nil {
		c.count.opened.Add(1)
	}
	return conn, err
}

// dsnConnector is a driver.Connector for a driver that only has Open(dsn),
// as clickhouse-go v1.
type dsnConnector struct {
	dsn string
	drv driver.Driver
}

func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c dsnConnector) Driver() driver.Driver                        { return c.drv }

// sqlPoolStats reads a database/sql pool's counters.
func sqlPoolStats(db *sql.DB, count *connCounter) PoolStats {
	s := db.Stats()
	opened := count.opened.Load()
	return PoolStats{
		Opened: opened, Closed: opened - int64(s.OpenConnections), SetupNs: count.setupNs.Load(),
		Waits: s.WaitCount, WaitNs: int64(s.WaitDuration),
	}
}

// applySQLPool sets a database/sql pool's knobs.
func applySQLPool(db *sql.DB, p Pool) {
	db.SetMaxOpenConns(p.MaxOpen)
	// database/sql reads 0 as "use the default (2)"; a negative value means none.
	if p.MaxIdle == 0 {
		db.SetMaxIdleConns(-1)
	} else {
		db.SetMaxIdleConns(p.MaxIdle)
	}
	db.SetConnMaxIdleTime(p.IdleTimeout)
	db.SetConnMaxLifetime(p.Lifetime)
}

// Stats returns the connections the dialer opened, those closed since, and
// the time spent dialing. Waits are unknown (-1) to a dialer.
func (d *Dialer) Stats() PoolStats { return d.count.stats() }
