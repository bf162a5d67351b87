package chtest

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
)

// Proxy is a loopback TCP listener in front of a server that can fail the
// way a network or a dying server does: it forwards, or drops (closes every
// open connection, and closes each new one after its first bytes, in the
// middle of the handshake), or refuses (no listener: dials are refused),
// and forwards again on the same port.
type Proxy struct {
	target  string
	addr    string
	accepts atomic.Int64
	drop    atomic.Bool
	mu      sync.Mutex
	ln      net.Listener
	conns   map[net.Conn]struct{}
	wg      sync.WaitGroup
}

// NewProxy forwards a new loopback port to target until the test ends.
func NewProxy(t *testing.T, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{target: target, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	p.serve(ln)
	t.Cleanup(func() {
		p.Refuse()
		p.wg.Wait()
	})
	return p
}

// Addr is the proxy's address.
func (p *Proxy) Addr() string { return p.addr }

// Accepts counts the connections the proxy accepted: each is a dial by a
// client.
func (p *Proxy) Accepts() int64 { return p.accepts.Load() }

// Drop closes every open connection and, from now on, each new one after
// its first bytes.
func (p *Proxy) Drop() {
	p.drop.Store(true)
	p.closeConns()
}

// Refuse closes the listener and every connection: dials are refused.
func (p *Proxy) Refuse() {
	p.mu.Lock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	p.mu.Unlock()
	p.closeConns()
}

// Forward listens again (after Refuse) and forwards new connections.
func (p *Proxy) Forward(t *testing.T) {
	t.Helper()
	p.drop.Store(false)
	p.mu.Lock()
	listening := p.ln != nil
	p.mu.Unlock()
	if listening {
		return
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatalf("listen again on %s: %v", p.addr, err)
	}
	p.serve(ln)
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.accepts.Add(1)
			p.track(c, true)
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				p.handle(c)
			}()
		}
	}()
}

func (p *Proxy) handle(c net.Conn) {
	defer func() { p.track(c, false); c.Close() }()
	if p.drop.Load() {
		buf := make([]byte, 16)
		c.Read(buf) // the client's hello starts, and the server goes
		return
	}
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	p.track(s, true)
	defer func() { p.track(s, false); s.Close() }()
	done := make(chan struct{}, 2)
	go func() { io.Copy(s, c); done <- struct{}{} }()
	go func() { io.Copy(c, s); done <- struct{}{} }()
	<-done
}

func (p *Proxy) track(c net.Conn, add bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if add {
		p.conns[c] = struct{}{}
	} else {
		delete(p.conns, c)
	}
}

func (p *Proxy) closeConns() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

// Cycle is what Outage saw: when connections were forwarded again, how
// many dials came while they were dropped, and the dial count then.
type Cycle struct {
	Back           time.Time
	DropAccepts    int64
	ForwardAccepts int64
}

// Outage takes p through a lost server in steps of step: forwarding, then
// every connection dropped mid-stream, then refused, then forwarded again.
// The channel yields what it saw once forwarding resumes.
func (p *Proxy) Outage(t *testing.T, step time.Duration) <-chan Cycle {
	done := make(chan Cycle, 1)
	go func() {
		time.Sleep(step)
		before := p.Accepts()
		p.Drop()
		time.Sleep(step)
		var c Cycle
		c.DropAccepts = p.Accepts() - before
		p.Refuse()
		time.Sleep(step)
		p.Forward(t)
		c.ForwardAccepts, c.Back = p.Accepts(), time.Now()
		done <- c
	}()
	return done
}

// Check checks what every proxy outage test asks of a path that went
// through c in front of p: connection errors during the gap and none of
// kind other, and dials again while connections were dropped. A path the server serves (served) must have operated after
// the gap (opsAfter); one it refuses must have dialed again after the gap
// and met the server's refusal.
func (c Cycle) Check(t *testing.T, p *Proxy, kinds map[string]int64, opsAfter int64, served bool) {
	t.Helper()
	if kinds[load.KindConnection] == 0 || kinds[load.KindOther] > 0 {
		t.Errorf("errors by kind %v: want connection errors during the gap and none of kind other", kinds)
	}
	if c.DropAccepts < 2 {
		t.Errorf("%d dials while connections were dropped: the path did not redial", c.DropAccepts)
	}
	if !served {
		// Before the gap too, the server refused every operation; after
		// it, the path must have dialed again and been refused again.
		if n := p.Accepts() - c.ForwardAccepts; n < 2 || kinds[load.KindServer] == 0 {
			t.Errorf("%d dials after the gap, errors %v: the path never reached the server again", n, kinds)
		}
		return
	}
	if opsAfter == 0 {
		t.Error("no operation after the gap")
	}
}
