package serverstats

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/result"
)

// statsMarker is in every query the capture sends, so that its own
// statements are never counted as the run's.
const statsMarker = "/* dbmeter-server-stats */"

// DefaultInterval is how often the run's backends' wait events
// are sampled.
const DefaultInterval = 100 * time.Millisecond

// A Capture reads the server's own figures for one run on a
// connection of its own: pg_stat_statements and pg_stat_database when the
// measured window begins and after the run's connections have closed (a
// backend flushes its database counters when it exits), and pg_stat_activity
// for the run's backends, found by their application_name, every interval
// in between.
type Capture struct {
	conn     *pgx.Conn
	dsn      string
	app      string
	interval time.Duration

	stats *result.ServerStats
	// statementsOff and databaseOff: that view could not be read at the
	// start, so there is no delta to take.
	statementsOff, databaseOff bool
	stmts0                     map[string]result.Statement
	db0                        map[string]float64

	stop    chan struct{}
	sampled sync.WaitGroup
	waits   result.WaitEvents // written by the sampler until stop
}

// Start connects and takes the starting snapshots. It fails only when
// it cannot connect; what the server does not allow is said in
// stats.Unavailable and the rest is still read.
func Start(ctx context.Context, dsn, app string, interval time.Duration) (*Capture, error) {
	conn, err := server.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("server stats: %w", err)
	}
	c := &Capture{conn: conn, dsn: dsn, app: app, interval: interval, stats: &result.ServerStats{}, stop: make(chan struct{})}
	if c.stmts0, err = readStatements(ctx, conn); err != nil {
		c.statementsOff = true
		c.unavailable("pg_stat_statements", err)
	}
	if c.db0, err = readDatabase(ctx, conn); err != nil {
		c.databaseOff = true
		c.unavailable("pg_stat_database", err)
	}
	c.waits = result.WaitEvents{IntervalNs: int64(interval), Events: map[string]int64{}}
	c.sampled.Add(1)
	go c.sample()
	return c, nil
}

// sample counts the run's backends by wait event until stop. It shares the
// connection with nothing until Finish, which waits for it.
func (c *Capture) sample() {
	defer c.sampled.Done()
	t := time.NewTicker(c.interval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		// A sample slower than the interval delays the next (the ticker
		// drops ticks); a deadline that cancelled the query would make pgx
		// close the connection.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := c.sampleOnce(ctx)
		cancel()
		if err != nil {
			c.unavailable("pg_stat_activity", err)
			return
		}
	}
}

func (c *Capture) sampleOnce(ctx context.Context) error {
	rows, err := c.conn.Query(ctx, statsMarker+` SELECT coalesce(wait_event_type, ''), coalesce(wait_event, '')
		FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`, c.app)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var typ, ev string
		if err := rows.Scan(&typ, &ev); err != nil {
			return err
		}
		c.waits.Samples++
		c.waits.Events[waitName(typ, ev)]++
	}
	return rows.Err()
}

// waitName is a wait event's key in the profile: a backend with none is
// running, on the CPU.
func waitName(typ, event string) string {
	if typ == "" {
		return "CPU"
	}
	return typ + ":" + event
}

// finishTimeout bounds the closing snapshots. They run on a context of
// their own: after an interrupt (SIGINT) the run's context is cancelled,
// and the figures of what was measured must still be read.
const finishTimeout = 5 * time.Second

// Finish stops the sampler, waits for the run's backends to exit, takes the
// closing snapshots and returns the deltas; transactions is what the run
// counted, for the server time per transaction. It reads on a context of
// its own, ctx's values without its cancellation, for finishTimeout.
func (c *Capture) Finish(ctx context.Context, transactions int64) *result.ServerStats {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	close(c.stop)
	c.sampled.Wait()
	if c.conn.IsClosed() { // the server went away meanwhile, perhaps only for a while
		if conn, err := server.Connect(ctx, c.dsn); err == nil {
			c.conn = conn
		}
	}
	defer c.conn.Close(context.Background())
	c.awaitExit(ctx)
	if c.waits.Samples > 0 {
		c.waits.SetShares()
		w := c.waits
		c.stats.WaitEvents = &w
	}
	if !c.statementsOff {
		stmts1, err := readStatements(ctx, c.conn)
		if err != nil {
			c.unavailable("pg_stat_statements", err)
		} else {
			c.stats.Statements = statementDeltas(c.stmts0, stmts1)
			var total float64
			for _, s := range c.stats.Statements {
				total += s.TotalNs
			}
			if transactions > 0 {
				c.stats.ServerNsPerOp = total / float64(transactions)
			}
		}
	}
	if !c.databaseOff {
		db1, err := readDatabase(ctx, c.conn)
		if err != nil {
			c.unavailable("pg_stat_database", err)
		} else {
			c.stats.Database = map[string]float64{}
			for k, v := range db1 {
				c.stats.Database[k] = v - c.db0[k]
			}
		}
	}
	return c.stats
}

// awaitExit waits, up to two seconds, until no backend of the run is left:
// an exiting backend is what flushes its pg_stat_database counters.
func (c *Capture) awaitExit(ctx context.Context) {
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		err := c.conn.QueryRow(ctx, statsMarker+` SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`, c.app).Scan(&n)
		if err != nil || n == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// unavailable records, once per view, that it could not be read and how to
// enable it.
func (c *Capture) unavailable(view string, err error) {
	line := fmt.Sprintf("%s not read: %s", view, firstLine(err.Error()))
	if how := unavailableHow(err); how != "" {
		line += "; " + how
	}
	if !slices.Contains(c.stats.Unavailable, line) {
		c.stats.Unavailable = append(c.stats.Unavailable, line)
	}
}

// unavailableHow says what would let a view be read after err, or "" when
// no setting would: a read cancelled or out of time is no matter of
// privileges.
func unavailableHow(err error) string {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return ""
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return ""
	}
	switch pe.Code {
	case "42P01", "55000": // not created in this database; not preloaded
		return "set shared_preload_libraries = 'pg_stat_statements' in postgresql.conf, restart the server and run CREATE EXTENSION pg_stat_statements in this database"
	case "42501": // insufficient_privilege
		return "grant the role pg_read_all_stats"
	}
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// readStatements reads pg_stat_statements for the connection's database,
// one entry per queryid (summed over users), the capture's own excluded.
func readStatements(ctx context.Context, conn *pgx.Conn) (map[string]result.Statement, error) {
	rows, err := conn.Query(ctx, statsMarker+` SELECT queryid::text, min(query), sum(calls)::bigint, sum(rows)::bigint,
		sum(total_exec_time)::float8, sum(calls * (stddev_exec_time ^ 2 + mean_exec_time ^ 2))::float8,
		sum(shared_blks_hit)::bigint, sum(shared_blks_read)::bigint, sum(shared_blks_written)::bigint,
		sum(wal_bytes)::bigint, sum(blk_read_time)::float8, sum(blk_write_time)::float8,
		sum(temp_blks_written)::bigint, sum(local_blks_read)::bigint, sum(local_blks_written)::bigint
		FROM pg_stat_statements
		WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
		  AND queryid IS NOT NULL AND query NOT LIKE '%dbmeter-server-stats%'
		GROUP BY queryid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]result.Statement{}
	for rows.Next() {
		var s result.Statement
		var totalMs, sumSqMs2, readMs, writeMs float64
		if err := rows.Scan(&s.QueryID, &s.Query, &s.Calls, &s.Rows, &totalMs, &sumSqMs2,
			&s.SharedBlksHit, &s.SharedBlksRead, &s.SharedBlksWrite, &s.WALBytes, &readMs, &writeMs,
			&s.TempBlksWritten, &s.LocalBlksRead, &s.LocalBlksWritten); err != nil {
			return nil, err
		}
		s.TotalNs, s.SumSqNs2 = totalMs*1e6, sumSqMs2*1e12
		s.BlkReadTimeNs, s.BlkWriteTimeNs = readMs*1e6, writeMs*1e6
		out[s.QueryID] = s
	}
	return out, rows.Err()
}

// statementDeltas is what each statement did between the two snapshots,
// most total time first. An entry that shrank was reset or evicted in
// between: its second snapshot is all it did that is known.
func statementDeltas(before, after map[string]result.Statement) []result.Statement {
	var out []result.Statement
	for id, a := range after {
		b, ok := before[id]
		if !ok || a.Calls < b.Calls {
			b = result.Statement{}
		}
		d := result.Statement{
			QueryID: id, Query: a.Query, Calls: a.Calls - b.Calls, Rows: a.Rows - b.Rows,
			TotalNs: a.TotalNs - b.TotalNs, SumSqNs2: a.SumSqNs2 - b.SumSqNs2,
			SharedBlksHit: a.SharedBlksHit - b.SharedBlksHit, SharedBlksRead: a.SharedBlksRead - b.SharedBlksRead,
			SharedBlksWrite: a.SharedBlksWrite - b.SharedBlksWrite, WALBytes: a.WALBytes - b.WALBytes,
			BlkReadTimeNs: a.BlkReadTimeNs - b.BlkReadTimeNs, BlkWriteTimeNs: a.BlkWriteTimeNs - b.BlkWriteTimeNs,
			TempBlksWritten: a.TempBlksWritten - b.TempBlksWritten, LocalBlksRead: a.LocalBlksRead - b.LocalBlksRead,
			LocalBlksWritten: a.LocalBlksWritten - b.LocalBlksWritten,
		}
		if d.Calls <= 0 {
			continue
		}
		d.SetMoments()
		out = append(out, d)
	}
	slices.SortFunc(out, func(x, y result.Statement) int {
		switch {
		case x.TotalNs > y.TotalNs:
			return -1
		case x.TotalNs < y.TotalNs:
			return 1
		}
		return strings.Compare(x.QueryID, y.QueryID)
	})
	return out
}

// readDatabase reads the pg_stat_database counters a run records, for the
// connection's database.
func readDatabase(ctx context.Context, conn *pgx.Conn) (map[string]float64, error) {
	databaseFigures := []string{"xact_commit", "xact_rollback", "blks_hit", "blks_read", "temp_bytes", "deadlocks"}
	vals := make([]int64, len(databaseFigures))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := conn.QueryRow(ctx, statsMarker+` SELECT xact_commit, xact_rollback, blks_hit, blks_read, temp_bytes, deadlocks
		FROM pg_stat_database WHERE datname = current_database()`).Scan(ptrs...); err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(vals))
	for i, k := range databaseFigures {
		out[k] = float64(vals[i])
	}
	return out, nil
}
