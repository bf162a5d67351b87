package extworker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Pool holds the worker processes of one client for one run: a process per
// connection, started on demand and kept while healthy. A worker that died,
// hung or broke the protocol is replaced, after a back-off that doubles
// with each failure in a row (restartMin to restartMax), so a worker that
// cannot live is not restarted at the rate operations arrive.
type Pool struct {
	spec   Spec
	stderr *Stderr
	mu     struct {
		sync.Mutex
		idle      []*Proc
		closed    bool
		starting  bool          // a worker is being started
		changed   chan struct{} // closed when a worker comes back or a start ends
		hello     *Hello
		started   int64
		failures  int64 // workers that died, hung, broke the protocol or failed to start
		backoff   time.Duration
		notBefore time.Time
		lastErr   error
	}
	rtt RTT
}

// Restart back-off bounds.
const (
	restartMin = 10 * time.Millisecond
	restartMax = time.Second
)

// NewPool makes an empty pool for spec.
func NewPool(spec Spec) *Pool {
	return &Pool{spec: spec, stderr: NewStderr(spec.Secrets)}
}

// Spec is what the pool starts.
func (p *Pool) Spec() Spec { return p.spec }

// Get returns an idle worker, or starts one. One start runs at a time:
// while it does, Get waits for it or for a worker to come back, whichever
// is first, so a burst of operations does not start a process each (a PHP
// or Python start takes tens of milliseconds of CPU). While a restart is
// backing off it fails at once with a connection error naming the last
// failure.
func (p *Pool) Get(ctx context.Context) (*Proc, error) {
	for {
		p.mu.Lock()
		if p.mu.closed {
			p.mu.Unlock()
			return nil, fmt.Errorf("worker pool of %s is closed", p.spec.Name)
		}
		if n := len(p.mu.idle); n > 0 {
			w := p.mu.idle[n-1]
			p.mu.idle = p.mu.idle[:n-1]
			p.mu.Unlock()
			return w, nil
		}
		if wait := time.Until(p.mu.notBefore); wait > 0 {
			err := p.mu.lastErr
			p.mu.Unlock()
			return nil, load.WithKind(fmt.Errorf("worker %s: restart backing off %s after: %w", p.spec.Name, wait.Round(time.Millisecond), err), load.KindConnection)
		}
		if !p.mu.starting {
			p.mu.starting = true
			p.mu.started++
			p.mu.Unlock()
			return p.start(ctx)
		}
		changed := p.changedLocked()
		p.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// changedLocked is a channel closed at the next change a waiting Get cares
// about: a worker handed back, a start ended.
func (p *Pool) changedLocked() chan struct{} {
	if p.mu.changed == nil {
		p.mu.changed = make(chan struct{})
	}
	return p.mu.changed
}

// signalLocked wakes the waiting Gets.
func (p *Pool) signalLocked() {
	if p.mu.changed != nil {
		close(p.mu.changed)
		p.mu.changed = nil
	}
}

func (p *Pool) start(ctx context.Context) (*Proc, error) {
	w, err := Start(ctx, p.spec, p.stderr)
	if err != nil && ctx.Err() == nil {
		p.failed(err)
	}
	p.mu.Lock()
	p.mu.starting = false
	p.signalLocked()
	if err == nil && p.mu.hello == nil {
		h := w.Hello()
		p.mu.hello = &h
	}
	p.mu.Unlock()
	if err != nil && load.Classify(err) == load.KindOther {
		// A worker that cannot start is a lost connection to the client,
		// whatever it said.
		err = load.WithKind(err, load.KindConnection)
	}
	return w, err
}

// Put hands a worker back after use. A broken one is killed and the next
// start backs off; a healthy one is kept for the next Get, and a
// successful operation (ok) ends any back-off.
func (p *Pool) Put(w *Proc, ok bool, err error) {
	if w.Broken() {
		w.Kill()
		if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			p.failed(err)
		}
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if ok {
		p.mu.backoff, p.mu.notBefore = 0, time.Time{}
	}
	if p.mu.closed {
		go w.Close()
		return
	}
	p.mu.idle = append(p.mu.idle, w)
	p.signalLocked()
}

func (p *Pool) failed(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mu.failures++
	p.mu.backoff = min(max(2*p.mu.backoff, restartMin), restartMax)
	p.mu.notBefore = time.Now().Add(p.mu.backoff)
	p.mu.lastErr = err
}

// Prestart starts n workers before a run, so that no operation pays for
// starting one, and measures the round trip of an empty exchange with them
// (pings each). The first failure to start is returned as it is: one line
// saying what the worker did.
func (p *Pool) Prestart(ctx context.Context, n, pings int) error {
	ws := make([]*Proc, 0, n)
	defer func() {
		for _, w := range ws {
			p.Put(w, true, nil)
		}
	}()
	for range n {
		w, err := p.Get(ctx)
		if err != nil {
			return err
		}
		ws = append(ws, w)
	}
	var samples []time.Duration
	for _, w := range ws {
		for range pings {
			t0 := time.Now()
			if err := w.Ping(ctx); err != nil {
				return fmt.Errorf("worker %s: ping: %w", p.spec.Name, err)
			}
			samples = append(samples, time.Since(t0))
		}
	}
	p.rtt = rttOf(samples)
	return nil
}

// RTT is the round trip of an empty exchange (a ping and its reply), as
// dbmeter timed it.
type RTT struct {
	N   int
	P50 time.Duration
	P99 time.Duration
}

func rttOf(s []time.Duration) RTT {
	if len(s) == 0 {
		return RTT{}
	}
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return RTT{N: len(s), P50: at(0.50), P99: at(0.99)}
}

// RTT is what Prestart measured.
func (p *Pool) RTT() RTT { return p.rtt }

// Hello is what the first worker said it is; false before any started.
func (p *Pool) Hello() (Hello, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mu.hello == nil {
		return Hello{}, false
	}
	return *p.mu.hello, true
}

// Stats are the pool's counters: workers started, and those that failed.
func (p *Pool) Stats() (started, failures int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mu.started, p.mu.failures
}

// Stderr is what the pool's workers wrote to stderr.
func (p *Pool) Stderr() *Stderr { return p.stderr }

// Close ends the idle workers; workers handed back later are ended then.
func (p *Pool) Close() {
	p.mu.Lock()
	idle := p.mu.idle
	p.mu.idle, p.mu.closed = nil, true
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, w := range idle {
		wg.Go(w.Close)
	}
	wg.Wait()
}

// Fill records the pool's workers in run: what they are and their round
// trip, how many were started and failed, and what they wrote to stderr.
func Fill(run *result.Run, p *Pool) {
	h, _ := p.Hello()
	rtt := p.RTT()
	run.External = &result.ExternalClient{
		Command: strings.Join(redact.Args(p.spec.Argv), " "), Language: h.Language, Runtime: h.Runtime, Library: h.Library,
		RTT: result.RTT{P50: rtt.P50.Nanoseconds(), P99: rtt.P99.Nanoseconds(), N: rtt.N},
	}
	started, failures := p.Stats()
	x := FigureDeclarations()
	x.Set(run, "workers_started", float64(started))
	x.Set(run, "worker_failures", float64(failures))
	if n, first, recent := p.Stderr().Lines(); n > 0 {
		w := fmt.Sprintf("the workers wrote %d lines to stderr; the first: %s", n, shorten(first))
		if last := recent[len(recent)-1]; n > 1 && last != first {
			w += "; the last: " + shorten(last)
		}
		run.Warnings = append(run.Warnings, w)
	}
}

// FigureDeclarations declares the extra figures Fill writes; the families
// that run workers declare them among theirs.
func FigureDeclarations() result.Declarations {
	return result.Declarations{
		"workers_started": result.Sum("workers"),
		"worker_failures": result.Sum("failures"),
	}
}
