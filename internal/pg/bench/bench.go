package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/script"
)

// Weighted is a script with its -b/-f weight.
type Weighted struct {
	Name   string // short name: "tpcb-like", or the file name
	Script *script.Script
	Weight int
}

// Config is one benchmark: one server, one driver, one query mode.
type Config struct {
	Driver  driver.Driver
	DSN     string
	Mode    driver.QueryMode
	Scripts []Weighted
	// Vars are the variables every client starts with: scale and -D
	// definitions; client_id, random_seed and default_seed are added as
	// pgbench adds them unless Vars defines them.
	Vars map[string]script.Value
	// Seed is pgbench's --random-seed: every client's generator derives
	// from it as in pgbench 15, so scripts draw the same numbers.
	Seed uint64
	// Throttled is -R: the -l log then has pgbench's lag column.
	Throttled bool
	// Clients and Threads are -c and -j; they decide how the generators
	// are dealt out. 0 means 1.
	Clients, Threads int
	// ClientOffset is the first client id of a shard (--shard): its
	// clients are ids ClientOffset… of the whole test, with the client
	// generators and :client_id those clients have in one run of them all,
	// so the shards together draw what one process would. TotalClients is
	// the whole test's -c (0: ClientOffset + Clients).
	ClientOffset, TotalClients int
	// Debug receives the lines of the scripts' debug() calls; nil
	// discards them.
	Debug io.Writer
	// MaxTries is --max-tries: how many times a transaction that hit a
	// serialization failure or a deadlock is tried in all; 0 means 1, as
	// pgbench's default, and a negative value means without limit
	// (pgbench's --max-tries=0).
	MaxTries int
	// LatencyLimit is -L: a transaction already slower than it is not
	// retried any more. 0: no limit.
	LatencyLimit time.Duration
	// VerboseErrors receives a line per failed or retried transaction
	// (--verbose-errors); nil discards them.
	VerboseErrors io.Writer
	// ConnectPerTx is -C: every transaction opens and closes its own
	// connection, and the connecting time counts in its latency.
	ConnectPerTx bool
	// PerCommand is -r: keep each command's latency, failures and retries.
	PerCommand bool
	// Log is -l: nil writes no transaction log.
	Log *TxLog
	// Timed says the run is limited by time (-T), not by a count: an
	// aborted client then waits instead of failing at once.
	Timed bool
}

// Validate reports the first setting that cannot work.
func (c Config) Validate() error {
	switch {
	case c.Driver == nil:
		return errors.New("no driver")
	case len(c.Scripts) == 0:
		return errors.New("no script")
	}
	for _, s := range c.Scripts {
		if s.Script != nil && s.Script.HasPipeline() && c.Mode == driver.ModeSimple {
			return fmt.Errorf("script %s: cannot use pipeline mode with the simple query protocol (use {Protocol} extended or prepared)", s.Name)
		}
		if s.Weight < 0 {
			return fmt.Errorf("script %s: weight must not be negative, got %d", s.Name, s.Weight)
		}
	}
	if c.totalWeight() == 0 {
		return errors.New("the scripts' weights add up to 0")
	}
	return nil
}

func (c Config) totalWeight() int {
	n := 0
	for _, s := range c.Scripts {
		n += s.Weight
	}
	return n
}

// Bench makes the clients of one benchmark and keeps what they share: the
// statements and the connection figures. Use one Bench per load.Run.
type Bench struct {
	cfg    Config
	total  int
	stmts  [][]*driver.Stmt // per script, per command (nil for \set)
	hasTx  []bool
	rollbk *driver.Stmt

	seeds   *script.Seeds
	logs    []*threadLog // -l, per thread
	choose  []chooser    // per thread
	debugMu sync.Mutex

	reconnects atomic.Int64
	retries    atomic.Int64 // tries after the first, over all transactions
	retried    atomic.Int64 // transactions tried more than once
	deadlocks  atomic.Int64 // transactions that failed on a deadlock (40P01)
	mu         struct {
		sync.Mutex
		conn    *hdrhistogram.Histogram // initial connection times
		lastErr error                   // the latest transaction error
		aborts  []string                // why clients were aborted
		clients []*Client               // for the per-command figures
	}
}

// Retries returns pgbench's "total number of retries" and "number of
// transactions retried".
func (b *Bench) Retries() (retries, retried int64) { return b.retries.Load(), b.retried.Load() }

// Deadlocks returns how many transactions failed on a deadlock; the other
// failures of kind serialization were serialization failures proper.
func (b *Bench) Deadlocks() int64 { return b.deadlocks.Load() }

// Aborts returns pgbench's message for each client a script error aborted,
// in the order they happened.
func (b *Bench) Aborts() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.mu.aborts...)
}

// LastError returns the latest error a transaction ended with, nil if none
// did: the reason behind the error counts.
func (b *Bench) LastError() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.mu.lastErr
}

// chooser is a thread's script-choice generator, shared by its clients as
// in pgbench.
type chooser struct {
	mu  *sync.Mutex
	rng *script.PRNG
}

// NewBench checks cfg and compiles its scripts into statements.
func NewBench(cfg Config) (*Bench, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	b := &Bench{cfg: cfg, total: cfg.totalWeight(), rollbk: &driver.Stmt{Name: "dbmeter_rollback", SQL: "ROLLBACK"}}
	b.mu.conn = hist.New()
	clients, threads := max(cfg.Clients, 1), max(cfg.Threads, 1)
	total := max(cfg.TotalClients, cfg.ClientOffset+clients)
	b.seeds = script.NewSeeds(cfg.Seed, total, min(threads, clients))
	if cfg.Log != nil {
		if err := b.openLogs(); err != nil {
			return nil, err
		}
	}
	for i := range b.seeds.Choose {
		b.choose = append(b.choose, chooser{mu: &sync.Mutex{}, rng: &b.seeds.Choose[i]})
	}
	for i, w := range cfg.Scripts {
		stmts := make([]*driver.Stmt, len(w.Script.Commands))
		tx := false
		for j, c := range w.Script.Commands {
			if c.SQL == nil {
				continue
			}
			stmts[j] = &driver.Stmt{Name: fmt.Sprintf("dbmeter_%d_%d", i, j), SQL: c.SQL.Text, Parts: c.SQL.Parts, Query: c.SQL.Query}
			tx = tx || c.SQL.Keyword == "begin" || c.SQL.Keyword == "start"
		}
		b.stmts = append(b.stmts, stmts)
		b.hasTx = append(b.hasTx, tx)
	}
	return b, nil
}

// Ops names the operations: one per script, in order.
func (b *Bench) Ops() []string {
	out := make([]string, len(b.cfg.Scripts))
	for i, s := range b.cfg.Scripts {
		out[i] = s.Name
	}
	return out
}

// ConnectTimes returns a copy of the initial connection times.
func (b *Bench) ConnectTimes() *hdrhistogram.Histogram {
	b.mu.Lock()
	defer b.mu.Unlock()
	h := hist.New()
	h.Merge(b.mu.conn)
	return h
}

// Reconnects is how many times clients reopened a lost session.
func (b *Bench) Reconnects() int64 { return b.reconnects.Load() }

// NewWorker opens client id's session; it fits load.NewWorker.
func (b *Bench) NewWorker(ctx context.Context, id int, rng *rand.Rand) (load.Worker, error) {
	id += b.cfg.ClientOffset
	c := &Client{b: b, id: id}
	if id < len(b.seeds.Clients) {
		c.prng = b.seeds.Clients[id]
		c.thread = b.seeds.ThreadOf[id]
		c.choose = b.choose[c.thread]
	} else {
		// A client pgbench would not have (open loop beyond -c): seeded
		// from the run's stream for it.
		c.prng = script.NewPRNG(rng.Uint64())
		c.thread = len(b.seeds.Choose) // logs nothing
		c.choose = chooser{mu: &sync.Mutex{}, rng: &script.PRNG{}}
		*c.choose.rng = script.NewPRNG(rng.Uint64())
	}
	pre := map[string]script.Value{
		"client_id":    script.Int(int64(id)),
		"random_seed":  script.Int(int64(b.cfg.Seed)),
		"default_seed": script.Int(b.seeds.DefaultSeed),
	}
	for k, v := range b.cfg.Vars {
		pre[k] = v
	}
	shared := map[*script.Names]script.Vars{}
	for _, w := range b.cfg.Scripts {
		v, ok := shared[w.Script.Names()]
		if !ok {
			v = w.Script.NewVars(pre)
			shared[w.Script.Names()] = v
		}
		c.vars = append(c.vars, v)
		if b.cfg.PerCommand {
			c.cmds = append(c.cmds, make([]cmdStats, len(w.Script.Commands)))
		}
	}
	b.mu.Lock()
	b.mu.clients = append(b.mu.clients, c)
	b.mu.Unlock()
	if b.cfg.ConnectPerTx {
		return c, nil // each transaction connects
	}
	start := time.Now()
	s, err := b.cfg.Driver.Open(ctx, b.cfg.DSN, b.cfg.Mode)
	if err != nil {
		return nil, err
	}
	b.recordConnect(time.Since(start))
	c.setSession(s)
	return c, nil
}

func (b *Bench) recordConnect(d time.Duration) {
	b.mu.Lock()
	b.mu.conn.RecordValue(max(int64(d), 1))
	b.mu.Unlock()
}

// cmdStats are one command's -r figures for one client.
type cmdStats struct {
	count                   int64
	total                   time.Duration
	failed, retries, errors int64
}

// CommandStats are a command's -r figures over all clients.
type CommandStats struct {
	Script, Command int    // indexes
	Text            string // the command's first line, as pgbench prints it
	Count           int64
	Mean            time.Duration
	Failures        int64 // transactions that failed at this command
	Retries         int64 // retries caused by this command
}

// CommandStats returns the -r figures, per script and command in order.
// Call it after the run.
func (b *Bench) CommandStats() []CommandStats {
	b.mu.Lock()
	clients := append([]*Client(nil), b.mu.clients...)
	b.mu.Unlock()
	var out []CommandStats
	for i, w := range b.cfg.Scripts {
		for j, cmd := range w.Script.Commands {
			cs := CommandStats{Script: i, Command: j, Text: cmd.Source}
			var total time.Duration
			for _, c := range clients {
				if c.cmds == nil {
					continue
				}
				st := c.cmds[i][j]
				cs.Count += st.count
				total += st.total
				cs.Failures += st.failed + st.errors
				cs.Retries += st.retries
			}
			if cs.Count > 0 {
				cs.Mean = total / time.Duration(cs.Count)
			}
			out = append(out, cs)
		}
	}
	return out
}

func (c *Client) setSession(s driver.Session) {
	c.sess = s
	if s == nil {
		c.live.Store(nil)
		return
	}
	c.live.Store(&s)
}

// watch makes qctx follow ctx, the run's context, which stays the same
// from one Do to the next.
func (c *Client) watch(ctx context.Context) {
	if ctx == c.runCtx {
		return
	}
	if c.stop != nil {
		c.stop()
	}
	c.runCtx = ctx
	c.qctx = context.WithoutCancel(ctx)
	c.stop = context.AfterFunc(ctx, c.interrupt)
}

func (c *Client) interrupt() {
	if s := c.live.Load(); s != nil {
		if i, ok := (*s).(driver.Interrupter); ok {
			i.Interrupt()
		}
	}
}

// Client is one pgbench client: a session and its variables. Each Do runs
// one transaction (one script, chosen by weight). After a connection error
// the session is dropped and the next Do reconnects, so a run survives a
// server restart.
type Client struct {
	b       *Bench
	id      int
	prng    script.PRNG
	choose  chooser
	sess    driver.Session
	vars    []script.Vars
	args    []any
	failed  int              // consecutive failed reconnects
	txOpen  bool             // the script opened a transaction (see inTx)
	aborted *abortError      // set once a script error aborted the client
	pipe    driver.Pipeliner // the session, while a pipeline is open
	thread  int              // the pgbench thread the client belongs to
	n       int64            // transactions logged so far (-l)
	due     time.Time        // -R: when the transaction about to run was scheduled
	tries   int              // tries of the current transaction
	cmds    [][]cmdStats     // -r: per script, per command
	env     script.Env       // reused by every transaction

	// Statements run under qctx, runCtx without its cancellation: drivers
	// watch a cancellable context with a goroutine or a callback per
	// statement, a client cost pgbench does not have. When runCtx is
	// cancelled, stop interrupts the session instead.
	runCtx context.Context
	qctx   context.Context
	stop   func() bool
	live   atomic.Pointer[driver.Session] // the session Interrupt may close
}

var (
	_ load.Worker    = (*Client)(nil)
	_ load.Scheduled = (*Client)(nil)
)

// Scheduled implements load.Scheduled: -R's schedule, for the -l log's
// latency (from the scheduled start) and lag columns.
func (c *Client) Scheduled(intended time.Time) { c.due = intended }

// Skipped implements load.Scheduled: a transaction -R -L skipped as
// already too late is logged as "skipped", as pgbench logs it.
func (c *Client) Skipped(intended time.Time) {
	if c.b.logs == nil {
		return
	}
	c.n++
	c.b.logTx(c.thread, txRecord{client: c.id, script: 0, n: c.n, end: time.Now(), skipped: true})
}

// pick chooses the next script by weight from the thread's generator, as
// pgbench's chooseScript.
func (c *Client) pick() int {
	if len(c.b.cfg.Scripts) == 1 {
		return 0
	}
	c.choose.mu.Lock()
	w := int64(c.choose.rng.Range(0, uint64(c.b.total-1)))
	c.choose.mu.Unlock()
	i := 0
	for {
		w -= int64(c.b.cfg.Scripts[i].Weight)
		i++
		if w < 0 {
			return i - 1
		}
	}
}

// fail classifies err and leaves the session usable for the next
// transaction: rolled back after a server error, dropped after anything
// else (the next Do reconnects).
func (c *Client) fail(ctx context.Context, script int, err error) error {
	if ctx.Err() != nil {
		// Interrupted at the end of the run: unfinished, whatever the
		// driver made of the closed socket.
		c.drop()
		return fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	kind := driver.Classify(err)
	switch kind {
	case load.KindServer, driver.KindSerialization:
		if c.b.hasTx[script] && ctx.Err() == nil {
			if _, rerr := c.sess.Exec(c.qctx, c.b.rollbk); rerr != nil && driver.Classify(rerr) != load.KindServer {
				c.drop()
			}
		}
	default:
		c.drop()
	}
	return load.WithKind(err, kind)
}

func (c *Client) drop() {
	if c.sess == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s := c.sess
	c.setSession(nil)
	s.Close(ctx)
}

// reconnect reopens the session, pausing after failures so that a server
// that is down is not hammered (and the error count stays meaningful).
func (c *Client) reconnect(ctx context.Context) error {
	if c.failed > 0 {
		pause := min(time.Duration(c.failed)*50*time.Millisecond, time.Second)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	s, err := c.b.cfg.Driver.Open(ctx, c.b.cfg.DSN, c.b.cfg.Mode)
	if err != nil {
		c.failed++
		if ctx.Err() != nil {
			return err
		}
		return load.WithKind(fmt.Errorf("reconnect: %w", err), load.KindConnection)
	}
	c.failed = 0
	c.setSession(s)
	c.b.reconnects.Add(1)
	return nil
}

// Close closes the session.
func (c *Client) Close() error {
	if c.stop != nil {
		c.stop()
	}
	if c.sess == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s := c.sess
	c.setSession(nil)
	return s.Close(ctx)
}

// RateQueue is how many -R arrivals may wait for a busy client: a minute's
// worth, as pgbench lets its schedule fall behind without bound, within
// what fits in memory.
func RateQueue(rate float64) int { return int(min(max(rate*60, 1000), 1<<20)) }
