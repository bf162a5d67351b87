package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/script"
)

// Do runs one transaction: one pass through a script chosen by weight,
// meta-commands included, as a pgbench client does.
func (c *Client) Do(ctx context.Context) (load.Outcome, error) {
	if c.aborted != nil {
		return load.Outcome{}, c.idle(ctx)
	}
	start := time.Now()
	began := start
	if !c.due.IsZero() { // -R: latency from the scheduled start, as pgbench
		start, c.due = c.due, time.Time{}
	}
	c.tries = 0
	out, err := c.do(ctx)
	if err != nil && ctx.Err() == nil {
		c.b.mu.Lock()
		c.b.mu.lastErr = err
		c.b.mu.Unlock()
	}
	if c.b.cfg.ConnectPerTx {
		// -C: the next transaction opens its own connection.
		c.drop()
	}
	if c.b.logs != nil && ctx.Err() == nil && (err == nil || driver.Classify(err) == driver.KindSerialization) {
		c.n++
		end := time.Now()
		c.b.logTx(c.thread, txRecord{client: c.id, script: int(out.Op), n: c.n, latency: end.Sub(start), lag: began.Sub(start), end: end,
			failed: err != nil, deadlock: driver.SQLState(err) == "40P01", tries: c.tries})
	}
	return out, err
}

func (c *Client) do(ctx context.Context) (load.Outcome, error) {
	i := c.pick()
	c.watch(ctx)
	// A retried transaction draws the same random numbers: pgbench
	// restores the client's generator before each try.
	saved := c.prng
	began := time.Now()
	for try := 1; ; try++ {
		c.tries = try
		out, err := c.try(ctx, i)
		if err == nil || driver.Classify(err) != driver.KindSerialization || ctx.Err() != nil || c.aborted != nil {
			if driver.SQLState(err) == "40P01" && ctx.Err() == nil {
				c.b.deadlocks.Add(1)
			}
			if try > 1 {
				c.b.retried.Add(1)
				c.b.retries.Add(int64(try - 1))
			}
			return out, err
		}
		max := c.b.cfg.MaxTries
		switch {
		case max == 0:
			max = 1
		case max < 0:
			max = 0 // unlimited
		}
		// pgbench stops retrying at the try limit, and once a retry could
		// only end beyond -L.
		late := c.b.cfg.LatencyLimit > 0 && time.Since(began) > c.b.cfg.LatencyLimit
		if max > 0 && try >= max || late {
			if try > 1 {
				c.b.retried.Add(1)
				c.b.retries.Add(int64(try - 1))
			}
			c.verbose("client %d ends the failed transaction (try %d/%d): %v", c.id, try, max, err)
			if driver.SQLState(err) == "40P01" {
				c.b.deadlocks.Add(1)
			}
			return out, err
		}
		c.verbose("client %d repeats the transaction after the error (try %d/%s): %v", c.id, try, tries(max), err)
		c.retriedCmd(i)
		c.prng = saved
	}
}

func tries(max int) string {
	if max == 0 {
		return "unlimited"
	}
	return fmt.Sprint(max)
}

// verbose writes one --verbose-errors line.
func (c *Client) verbose(format string, a ...any) {
	if c.b.cfg.VerboseErrors == nil {
		return
	}
	c.b.debugMu.Lock()
	defer c.b.debugMu.Unlock()
	fmt.Fprintf(c.b.cfg.VerboseErrors, format+"\n", a...)
}

// retriedCmd moves the failure just counted for script i's failing
// command to its retries.
func (c *Client) retriedCmd(i int) {
	if c.cmds == nil {
		return
	}
	for j := range c.cmds[i] {
		if c.cmds[i][j].failed > 0 {
			c.cmds[i][j].failed--
			c.cmds[i][j].retries++
			return
		}
	}
}

// connect opens the session of one -C transaction, timing the
// connection as pgbench's "average connection time".
func (c *Client) connect(ctx context.Context) error {
	start := time.Now()
	s, err := c.b.cfg.Driver.Open(ctx, c.b.cfg.DSN, c.b.cfg.Mode)
	if err != nil {
		return load.WithKind(fmt.Errorf("connect: %w", err), load.KindConnection)
	}
	c.b.recordConnect(time.Since(start))
	c.setSession(s)
	return nil
}

// try runs script i once.
func (c *Client) try(ctx context.Context, i int) (load.Outcome, error) {
	out := load.Outcome{Op: uint8(i)}
	if c.sess == nil {
		var err error
		if c.b.cfg.ConnectPerTx {
			err = c.connect(ctx)
		} else {
			err = c.reconnect(ctx)
		}
		if err != nil {
			return out, err
		}
	}
	w := c.b.cfg.Scripts[i]
	env := &c.env
	*env = script.Env{Vars: c.vars[i], Rand: &c.prng, Script: i}
	if c.b.cfg.Debug != nil {
		env.Debug = lockedWriter{c.b}
	}
	cmds := w.Script.Commands
	for j := 0; j < len(cmds); {
		cmd := &cmds[j]
		env.Command = j + 1
		var t0 time.Time
		if c.cmds != nil {
			t0 = time.Now()
		}
		next, err := c.step(ctx, i, j, cmd, env, &out)
		if c.cmds != nil {
			st := &c.cmds[i][j]
			if err == nil {
				st.count++
				st.total += time.Since(t0)
			} else if driver.Classify(err) == driver.KindSerialization {
				st.failed++ // moved to retries when the transaction is retried
			} else {
				st.errors++
			}
		}
		if err != nil {
			var ae *abortError
			if errors.As(err, &ae) {
				c.abort(ae)
			}
			return out, err
		}
		j = next
	}
	if c.inTx() {
		// pgbench counts this transaction and then aborts the client.
		c.abort(&abortError{msg: fmt.Sprintf("client %d aborted: end of script reached without completing the last transaction", c.id)})
	}
	return out, nil
}

// KindAborted counts the transactions a client did not run because a
// script error aborted it, as pgbench aborts a client (pgbench reports
// them as not processed).
const KindAborted = "aborted"

// abortError is a script error after which pgbench aborts the client.
type abortError struct {
	msg string
	err error
}

func (e *abortError) Error() string {
	if e.err == nil {
		return e.msg
	}
	return e.msg + ": " + e.err.Error()
}
func (e *abortError) Unwrap() error     { return e.err }
func (e *abortError) ErrorKind() string { return load.KindOther }

// abort stops the client for the rest of the run: the session is closed
// (the server rolls back what is open) and every later Do fails at once.
func (c *Client) abort(e *abortError) {
	c.aborted = e
	c.b.mu.Lock()
	c.b.mu.aborts = append(c.b.mu.aborts, e.Error())
	c.b.mu.Unlock()
	c.drop()
}

// idle is what an aborted client does instead of a transaction. In a
// timed run it waits a second (or until the run ends) so that it does not
// spin; in a counted run it returns at once so the run can finish.
func (c *Client) idle(ctx context.Context) error {
	if c.b.cfg.Timed {
		t := time.NewTimer(time.Second)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	return load.WithKind(fmt.Errorf("not run: %w", c.aborted), KindAborted) // the abort names the client
}

// inTx reports whether the session is inside a transaction block, from
// the server when the driver can say, else from the script's own BEGIN
// and COMMIT.
func (c *Client) inTx() bool {
	if c.sess == nil {
		return false
	}
	if t, ok := c.sess.(TxStatuser); ok {
		if in, known := t.InTx(); known {
			return in
		}
	}
	return c.txOpen
}

// A TxStatuser knows whether its session is inside a transaction block;
// known is false when the driver cannot tell.
type TxStatuser interface {
	InTx() (in, known bool)
}

// step runs command j and returns the index of the next one.
func (c *Client) step(ctx context.Context, si, j int, cmd *script.Command, env *script.Env, out *load.Outcome) (int, error) {
	name := c.b.cfg.Scripts[si].Name
	metaErr := func(err error) error {
		return &abortError{msg: fmt.Sprintf("client %d aborted in command %d (%s) of script %d", c.id, j, kindName(cmd.Kind), si), err: fmt.Errorf("%s %w", name, err)}
	}
	switch cmd.Kind {
	case script.KindSet:
		if err := cmd.Set(env); err != nil {
			return 0, metaErr(err)
		}
	case script.KindIf:
		return c.branch(si, j, env)
	case script.KindElif, script.KindElse:
		// Reached by finishing the branch before it: leave the chain.
		return cmd.End() + 1, nil
	case script.KindEndif:
	case script.KindSleep:
		d, err := cmd.Sleep(env.Vars)
		if err != nil {
			return 0, metaErr(err)
		}
		if d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return 0, ctx.Err()
			}
		}
	case script.KindShell, script.KindSetShell:
		if err := runShell(ctx, cmd, env.Vars); err != nil {
			return 0, metaErr(err)
		}
	case script.KindSQL:
		if err := c.sql(ctx, si, j, cmd, env, out); err != nil {
			return 0, err
		}
	case script.KindStartPipeline:
		p, ok := c.sess.(driver.Pipeliner)
		if !ok {
			return 0, metaErr(fmt.Errorf("line %d: this driver has no pipeline mode (use {Drivers} pgx)", cmd.Line))
		}
		// As pgbench, prepare the pipeline's statements before it starts.
		if c.b.cfg.Mode == driver.ModePrepared {
			for k := j + 1; k < len(c.b.stmts[si]) && c.b.cfg.Scripts[si].Script.Commands[k].Kind != script.KindEndPipeline; k++ {
				if st := c.b.stmts[si][k]; st != nil {
					if err := p.Prepare(c.qctx, st); err != nil {
						return 0, c.fail(ctx, si, err)
					}
				}
			}
		}
		if err := p.StartPipeline(c.qctx); err != nil {
			return 0, c.fail(ctx, si, err)
		}
		c.pipe = p
	case script.KindEndPipeline:
		n, err := c.pipe.EndPipeline(c.qctx)
		c.pipe = nil
		out.Rows += n
		if err != nil {
			return 0, c.fail(ctx, si, err)
		}
	}
	return j + 1, nil
}

// branch evaluates the \if at j and the \elif conditions after it until
// one holds, and returns where execution goes on.
func (c *Client) branch(si, j int, env *script.Env) (int, error) {
	cmds := c.b.cfg.Scripts[si].Script.Commands
	name := c.b.cfg.Scripts[si].Name
	for {
		cmd := &cmds[j]
		env.Command = j + 1
		switch cmd.Kind {
		case script.KindIf, script.KindElif:
			ok, err := cmd.Truth(env)
			if err != nil {
				return 0, &abortError{msg: fmt.Sprintf("client %d aborted in command %d (%s) of script %d", c.id, j, kindName(cmd.Kind), si), err: fmt.Errorf("%s %w", name, err)}
			}
			if ok {
				return j + 1, nil
			}
			j = cmd.Next()
		default: // \else or \endif
			return j + 1, nil
		}
	}
}

// sql runs one SQL command and stores its results for \gset or \aset.
func (c *Client) sql(ctx context.Context, i, j int, cmd *script.Command, env *script.Env, out *load.Outcome) error {
	args := cmd.SQL.ArgsAsPgbench(c.args[:0], env.Vars, c.b.cfg.Mode == driver.ModeSimple)
	c.args = args
	st := c.b.stmts[i][j]
	if c.pipe != nil {
		if err := c.pipe.Queue(st, args); err != nil {
			return c.fail(ctx, i, err)
		}
		c.track(cmd.SQL)
		return nil
	}
	if cmd.Store != script.StoreNone {
		return c.store(ctx, i, j, cmd, st, env, out)
	}
	var err error
	if st.Query {
		var n int64
		n, err = c.sess.Query(c.qctx, st, args...)
		out.Rows += n
	} else {
		_, err = c.sess.Exec(c.qctx, st, args...)
	}
	if err != nil {
		return c.fail(ctx, i, err)
	}
	c.track(cmd.SQL)
	return nil
}

// track follows BEGIN and COMMIT for drivers that cannot report the
// transaction status.
func (c *Client) track(q *script.SQL) {
	switch q.Keyword {
	case "begin", "start":
		c.txOpen = true
	case "commit", "end", "rollback", "abort":
		c.txOpen = false
	}
}

func kindName(k script.Kind) string {
	if k == script.KindSQL {
		return "SQL"
	}
	return [...]string{"", "set", "setshell", "shell", "sleep", "if", "elif", "else", "endif", "startpipeline", "endpipeline"}[k]
}

// lockedWriter serialises debug() lines from concurrent clients.
type lockedWriter struct{ b *Bench }

func (l lockedWriter) Write(p []byte) (int, error) {
	l.b.debugMu.Lock()
	defer l.b.debugMu.Unlock()
	return l.b.cfg.Debug.Write(p)
}
