// Package standin is a protocol stand-in for a modern ClickHouse server:
// it speaks the native protocol (at ch-go's revision, and at the older
// revisions clients ask for) and the HTTP interface on one port, with or
// without TLS, so that dbmeter's modern client paths can be tested end to
// end where no modern server can run, and so that a user can measure a
// client's own cost with the server taken out (`dbmeter ch null-server`).
//
// It is not a ClickHouse. It keeps a schema and counts the rows each
// table is sent, discarding their values (like ENGINE = Null); it answers
// SELECTs with generated values of the right types and row counts; it
// understands only the statement shapes dbmeter sends. It keeps a log of
// what it received so tests can check what each path put on the wire.
package standin

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ClickHouse/ch-go/proto"
)

// Options configure a Server.
type Options struct {
	// TLS serves TLS only, with a self-signed certificate for 127.0.0.1
	// and localhost made at start (CertPEM).
	TLS bool
	// Version is what SELECT version() answers; DefaultVersion if empty.
	Version string
}

// DefaultVersion is the version the stand-in reports: a release that
// speaks native protocol revision 54460, the one ch-go and clickhouse-go
// v2 speak, and knows HTTP's client_protocol_version.
const DefaultVersion = "23.8.0"

// Server is a running stand-in.
type Server struct {
	ln      net.Listener
	opts    Options
	certPEM []byte
	cat     *catalog
	httpLn  *chanListener
	http    *http.Server
	conns   atomic.Int64
	log     *Log
	wg      sync.WaitGroup
	closing atomic.Bool
	mu      struct {
		sync.Mutex
		open map[net.Conn]struct{}
	}
}

// Listen starts a stand-in on addr ("127.0.0.1:0" picks a port). It
// serves until Close.
func Listen(addr string, o Options) (*Server, error) {
	if o.Version == "" {
		o.Version = DefaultVersion
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s := &Server{ln: ln, opts: o, cat: newCatalog(), log: &Log{}}
	s.mu.open = map[net.Conn]struct{}{}
	if o.TLS {
		cfg, pem, err := selfSigned()
		if err != nil {
			ln.Close()
			return nil, err
		}
		s.ln, s.certPEM = tls.NewListener(ln, cfg), pem
	}
	s.httpLn = &chanListener{addr: ln.Addr(), conns: make(chan net.Conn), done: make(chan struct{})}
	s.http = &http.Server{Handler: http.HandlerFunc(s.serveHTTP), ReadHeaderTimeout: time.Minute, ConnContext: connContext}
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.http.Serve(s.httpLn) }()
	go func() { defer s.wg.Done(); s.accept() }()
	return s, nil
}

// Addr is the address the stand-in listens on, for both protocols.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// TLS reports whether the stand-in serves TLS.
func (s *Server) TLS() bool { return s.opts.TLS }

// CertPEM is the self-signed certificate of a TLS stand-in, for a client
// that verifies it (a CA file).
func (s *Server) CertPEM() []byte { return s.certPEM }

// Log is what the stand-in received.
func (s *Server) Log() *Log { return s.log }

// Exec runs a statement as a client's query would, for the schema a
// stand-in starts with.
func (s *Server) Exec(q string) error {
	st, err := s.cat.run(q, s.info("default", 0))
	if err == nil && (st.r != nil || st.insert != nil) {
		err = fmt.Errorf("exec %q: only statements without a result", short(q))
	}
	return err
}

// Rows is how many rows the table db.name was sent in completed INSERTs.
func (s *Server) Rows(db, table string) (int64, error) {
	_, n, err := s.cat.table(name{db, table})
	return n, err
}

// Drop closes every open connection, as a server that dies does, and
// keeps listening.
func (s *Server) Drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.mu.open {
		c.Close()
	}
}

// Close stops listening, closes every connection and waits for them.
func (s *Server) Close() error {
	s.closing.Store(true)
	err := s.ln.Close()
	s.httpLn.Close()
	s.http.Close()
	s.Drop()
	s.wg.Wait()
	return err
}

func (s *Server) info(db string, revision int) info {
	return info{version: s.opts.Version, display: "dbmeter-standin", timezone: "UTC", database: db, revision: max(revision, proto.Version)}
}

func (s *Server) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if s.closing.Load() || errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		s.track(c, true)
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.handle(c)
		}()
	}
}

func (s *Server) track(c net.Conn, add bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if add {
		s.mu.open[c] = struct{}{}
	} else {
		delete(s.mu.open, c)
	}
}

// handle tells the protocols apart by the first byte: a native client
// opens with its Hello packet (code 0), an HTTP client with a method name.
func (s *Server) handle(c net.Conn) {
	id := s.conns.Add(1)
	if tc, ok := c.(*tls.Conn); ok {
		tc.SetDeadline(time.Now().Add(10 * time.Second))
		if err := tc.HandshakeContext(context.Background()); err != nil {
			s.track(c, false)
			c.Close()
			return
		}
		tc.SetDeadline(time.Time{})
	}
	br := bufio.NewReader(c)
	first, err := br.Peek(1)
	if err != nil {
		s.track(c, false)
		c.Close()
		return
	}
	pc := &peekedConn{Conn: c, r: br, id: id, tls: s.opts.TLS, done: func() { s.track(c, false) }}
	if first[0] != byte(proto.ClientCodeHello) {
		if !s.httpLn.give(pc) {
			pc.Close()
		}
		return
	}
	defer pc.Close()
	n := &nativeConn{s: s, conn: pc, id: id}
	n.serve()
}

// peekedConn is a connection whose first bytes were read ahead.
type peekedConn struct {
	net.Conn
	r    *bufio.Reader
	id   int64
	tls  bool
	once sync.Once
	done func()
}

func (p *peekedConn) Read(b []byte) (int, error) { return p.r.Read(b) }

func (p *peekedConn) Close() error {
	p.once.Do(p.done)
	return p.Conn.Close()
}

// chanListener hands the HTTP connections to net/http's server.
type chanListener struct {
	addr  net.Addr
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *chanListener) give(c net.Conn) bool {
	select {
	case l.conns <- c:
		return true
	case <-l.done:
		return false
	}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *chanListener) Addr() net.Addr { return l.addr }
