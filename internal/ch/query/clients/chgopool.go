package clients

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	chgo "github.com/ClickHouse/ch-go"

	"github.com/dbmeter/dbmeter/internal/ch/query"
)

// chgoPool is a connection pool for ch-go clients with database/sql's
// knobs: at most MaxOpen connections (a query waits for one when all are
// busy), at most MaxIdle kept idle, closed after IdleTimeout idle or
// Lifetime old. It counts waits and connection setup (dial and handshake).
type chgoPool struct {
	opts    chgo.Options
	knobs   query.Pool
	dialer  *query.Dialer
	sem     chan struct{} // one token per open connection; nil: no limit
	waits   atomic.Int64
	waitNs  atomic.Int64
	setupNs atomic.Int64
	mu      struct {
		sync.Mutex
		idle []*chgoConn // most recently used last
	}
}

type chgoConn struct {
	client    *chgo.Client
	born, idl time.Time
	reused    bool // taken from the idle list, not freshly dialed
}

func newCHGoPool(opts chgo.Options, knobs query.Pool, d *query.Dialer) *chgoPool {
	p := &chgoPool{opts: opts, knobs: knobs, dialer: d}
	if knobs.MaxOpen > 0 {
		p.sem = make(chan struct{}, knobs.MaxOpen)
	}
	return p
}

func (p *chgoPool) acquire(ctx context.Context) (*chgoConn, error) {
	if p.sem != nil {
		select {
		case p.sem <- struct{}{}:
		default:
			p.waits.Add(1)
			start := time.Now()
			select {
			case p.sem <- struct{}{}:
				p.waitNs.Add(int64(time.Since(start)))
			case <-ctx.Done():
				p.waitNs.Add(int64(time.Since(start)))
				return nil, ctx.Err()
			}
		}
	}
	if c := p.takeIdle(time.Now()); c != nil {
		return c, nil
	}
	start := time.Now()
	client, err := chgo.Dial(ctx, p.opts)
	p.setupNs.Add(int64(time.Since(start)))
	if err != nil {
		p.free()
		return nil, fmt.Errorf("connect with ch-go to %s: %w", p.opts.Address, err)
	}
	return &chgoConn{client: client, born: time.Now()}, nil
}

// takeIdle returns the most recently used idle connection still fit to
// use, closing the expired ones it meets.
func (p *chgoPool) takeIdle(now time.Time) *chgoConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	for n := len(p.mu.idle); n > 0; n = len(p.mu.idle) {
		c := p.mu.idle[n-1]
		p.mu.idle = p.mu.idle[:n-1]
		if p.expired(c, now) || c.client.IsClosed() {
			c.client.Close()
			continue
		}
		c.reused = true
		return c
	}
	return nil
}

func (p *chgoPool) expired(c *chgoConn, now time.Time) bool {
	return p.knobs.Lifetime > 0 && now.Sub(c.born) >= p.knobs.Lifetime ||
		p.knobs.IdleTimeout > 0 && !c.idl.IsZero() && now.Sub(c.idl) >= p.knobs.IdleTimeout
}

// release returns c to the pool, or closes it when it is broken, expired
// or the idle list is full.
func (p *chgoPool) release(c *chgoConn, broken bool) {
	defer p.free()
	now := time.Now()
	if !broken && !c.client.IsClosed() && !p.expired(c, now) {
		p.mu.Lock()
		if len(p.mu.idle) < p.knobs.MaxIdle {
			c.idl = now
			p.mu.idle = append(p.mu.idle, c)
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
	}
	c.client.Close()
}

func (p *chgoPool) free() {
	if p.sem != nil {
		<-p.sem
	}
}

func (p *chgoPool) stats() query.PoolStats {
	s := p.dialer.Stats()
	s.SetupNs, s.Waits, s.WaitNs = p.setupNs.Load(), p.waits.Load(), p.waitNs.Load()
	return s
}

func (p *chgoPool) close() {
	p.mu.Lock()
	idle := p.mu.idle
	p.mu.idle = nil
	p.mu.Unlock()
	for _, c := range idle {
		c.client.Close()
	}
}
