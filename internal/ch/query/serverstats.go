package query

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
)

// profileEvents are the per-query ProfileEvents a run sums, those the
// server has: where the server's time went (CPU, disk, network, waiting
// for a CPU) and how much it read.
var profileEvents = []string{
	"RealTimeMicroseconds", "UserTimeMicroseconds", "SystemTimeMicroseconds", "OSCPUWaitMicroseconds",
	"DiskReadElapsedMicroseconds", "NetworkSendElapsedMicroseconds", "NetworkReceiveElapsedMicroseconds",
	"ReadCompressedBytes", "CompressedReadBufferBytes", "OSReadBytes", "OSReadChars",
	"SelectedParts", "SelectedMarks", "SelectedRows", "SelectedBytes", "MarkCacheHits", "MarkCacheMisses",
}

// flushWait is how long a capture waits for the run's queries to reach
// the server's query log, flushing it, or, when SYSTEM FLUSH LOGS is
// refused, for the server to write it by itself (its default
// flush_interval_milliseconds is 7.5 s).
const flushWait = 10 * time.Second

// A statsCapture joins a run's measured queries to the server's own
// record of them. Each query carries an id, prefix followed by its tag;
// the runner hands over the tag and client service time of each measured
// query (tagged); after the run, finish flushes the server's logs and reads
// system.query_log for the prefix. system.events is read when the window
// opens and after it. Every read is on a connection of its own, outside
// the measured operations.
type statsCapture struct {
	db     *sql.DB
	prefix string
	// log says the query log can be read and every query is logged
	// (log_queries is on, or the run turns it on: setLog); events, that
	// the server has system.events.
	log, setLog, events bool
	events0             map[string]int64
	stats               result.ServerStats

	mu     sync.Mutex
	client map[uint64]time.Duration
}

// startStats checks what the server allows (the query log itself is
// checked after the run: its table appears at the first flush of a server
// that logs). It connects lazily and never fails the run: what cannot be
// read is said in Unavailable and the rest is still read.
func startStats(ctx context.Context, dsn ch.DSN) *statsCapture {
	c := &statsCapture{client: map[uint64]time.Duration{},
		prefix: fmt.Sprintf("dbmeter-%s-%08x-", strconv.FormatInt(time.Now().UnixNano(), 36), rand.Uint32())}
	var err error
	if c.db, err = sql.Open(ch.V1Driver, dsn.Admin().V1()); err != nil {
		c.unavailable(fmt.Sprintf("the server's own figures: connect to %s: %s", dsn.Addr, oneLine(err)))
		return c
	}
	c.db.SetMaxOpenConns(1)
	// Every ClickHouse server keeps system.events; one that does not (the
	// protocol stand-in of ch null-server) has none of these figures, and
	// is asked nothing more.
	var events int
	if err := c.db.QueryRowContext(ctx, "SELECT count() FROM system.tables WHERE database = 'system' AND name = 'events'").Scan(&events); err != nil {
		c.unavailable(fmt.Sprintf("the server's own figures: read system.tables: %s: grant this user SELECT on system tables", oneLine(err)))
		return c
	}
	if events == 0 {
		c.unavailable("the server's own figures: the server keeps no system.events or system.query_log (not a ClickHouse server's statistics)")
		return c
	}
	c.events = true
	settings := map[string]string{}
	rows, err := c.db.QueryContext(ctx, "SELECT name, value FROM system.settings WHERE name IN ('log_queries', 'readonly')")
	if err == nil {
		for rows.Next() {
			var k, v string
			if err = rows.Scan(&k, &v); err != nil {
				break
			}
			settings[k] = v
		}
		rows.Close()
	}
	switch {
	case err != nil:
		c.unavailable(fmt.Sprintf("system.query_log: read system.settings: %s: grant this user SELECT on system tables", oneLine(err)))
	case settings["log_queries"] == "1":
		c.log = true
	case settings["readonly"] == "1":
		c.unavailable("system.query_log: log_queries is off and this user is readonly, so dbmeter cannot turn it on: set log_queries=1 in the user's profile")
	default:
		c.log, c.setLog = true, true
	}
	return c
}

// unavailable notes, once, what could not be read.
func (c *statsCapture) unavailable(line string) {
	c.stats.Unavailable = append(c.stats.Unavailable, line)
}

// begin reads system.events as the window opens.
func (c *statsCapture) begin(ctx context.Context) {
	if !c.events {
		return
	}
	var err error
	if c.events0, err = c.pairs(ctx, "SELECT event, value FROM system.events"); err != nil {
		c.unavailable(fmt.Sprintf("system.events: %s: grant SELECT on system.events", oneLine(err)))
	}
}

// tagged keeps a measured query's client service time (load.Config.OnTagged).
// A query the runner abandoned may end after the log was read: it is
// dropped.
func (c *statsCapture) tagged(tag uint64, service time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client != nil {
		c.client[tag] = service
	}
}

// finishTimeout bounds the closing reads: the query log's wait and a few
// seconds more.
const finishTimeout = flushWait + 5*time.Second

// finish reads the server's figures and closes the capture's connection.
// It reads on a context of its own, ctx's values without its
// cancellation: after an interrupt (SIGINT) the run's context is
// cancelled, and the figures of what was measured must still be read.
func (c *statsCapture) finish(ctx context.Context) *result.ServerStats {
	if c.db == nil {
		return &c.stats
	}
	defer c.db.Close()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	if c.events0 != nil {
		if end, err := c.pairs(ctx, "SELECT event, value FROM system.events"); err != nil {
			c.unavailable(fmt.Sprintf("system.events: %s: grant SELECT on system.events", oneLine(err)))
		} else {
			c.stats.Events = map[string]int64{}
			for k, v := range end {
				if d := v - c.events0[k]; d != 0 {
					c.stats.Events[k] = d
				}
			}
		}
	}
	if c.log {
		if err := c.readLog(ctx); err != nil {
			c.unavailable(fmt.Sprintf("system.query_log: %s: the server needs a <query_log> section in its config and this user SELECT on system tables", oneLine(err)))
		}
	}
	return &c.stats
}

// readLog joins the query log's records of the run's queries to the
// client's times.
func (c *statsCapture) readLog(ctx context.Context) error {
	c.mu.Lock()
	client := c.client
	c.client = nil
	c.mu.Unlock()
	c.awaitLog(ctx, client)
	cols, err := c.logColumns(ctx)
	if err != nil {
		return err
	}
	durUs, res := "query_duration_ms * 1000", int64(time.Millisecond)
	switch {
	case cols["query_duration_us"]:
		durUs, res = "query_duration_us", int64(time.Microsecond)
	case cols["query_start_time_microseconds"] && cols["event_time_microseconds"]:
		durUs, res = "toUnixTimestamp64Micro(event_time_microseconds) - toUnixTimestamp64Micro(query_start_time_microseconds)", int64(time.Microsecond)
	}
	rows, err := c.db.QueryContext(ctx, "SELECT query_id, toUInt8(type) = 2, "+durUs+", read_rows, read_bytes, memory_usage FROM system.query_log "+
		"WHERE event_date >= yesterday() AND query_id LIKE '"+c.prefix+"%' AND toUInt8(type) != 1")
	if err != nil {
		return err
	}
	defer rows.Close()
	server, side := hist.New(), hist.New()
	var serverTotal, sideTotal int64
	seen := make(map[uint64]bool, len(client))
	for rows.Next() {
		var (
			id              string
			ok              uint8
			us, rr, rb, mem uint64
		)
		if err := rows.Scan(&id, &ok, &us, &rr, &rb, &mem); err != nil {
			return err
		}
		tag, err := strconv.ParseUint(strings.TrimPrefix(id, c.prefix), 10, 64)
		cl, measured := client[tag]
		if err != nil || !measured || seen[tag] {
			continue // warm-up, or a query of the run that failed
		}
		seen[tag] = true
		if ok == 0 {
			c.stats.Exceptions++
			continue
		}
		ns := int64(us) * int64(time.Microsecond)
		hist.Record(server, ns)
		serverTotal += ns
		rest := cl.Nanoseconds() - ns
		if rest < 0 {
			c.stats.ClientSideNegative++
			rest = 0
		}
		hist.Record(side, rest)
		sideTotal += rest
		c.stats.ReadRows += int64(rr)
		c.stats.ReadBytes += int64(rb)
		c.stats.MemoryBytes += int64(mem)
		c.stats.MemoryMaxBytes = max(c.stats.MemoryMaxBytes, int64(mem))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	c.stats.NotLogged = int64(len(client) - len(seen))
	c.stats.ResolutionNs = res
	c.stats.LatencyNs = ptr(result.PhaseOf(server, serverTotal))
	c.stats.ClientSideNs = ptr(result.PhaseOf(side, sideTotal))
	if n := server.TotalCount(); n > 0 {
		c.stats.ServerNsPerOp = float64(serverTotal) / float64(n)
	}
	c.stats.ProfileEvents, err = c.profileEvents(ctx, cols)
	return err
}

// awaitLog flushes the server's logs until they hold as many records as
// the run measured queries, numbered from the first measured to the last
// (the warm-up's come before), for up to flushWait: a query's end is logged after its
// result is sent (the http interface answers first), so the last queries'
// records may reach the log after a first flush. Without SYSTEM FLUSH
// LOGS it waits for the server's own flush.
func (c *statsCapture) awaitLog(ctx context.Context, client map[uint64]time.Duration) {
	if len(client) == 0 {
		return
	}
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for tag := range client {
		lo, hi = min(lo, tag), max(hi, tag)
	}
	n := int64(len(client))
	flush := true
	deadline := time.Now().Add(flushWait)
	for ctx.Err() == nil {
		if flush {
			if _, err := c.db.ExecContext(ctx, "SYSTEM FLUSH LOGS"); err != nil {
				flush = false
				c.unavailable(fmt.Sprintf("SYSTEM FLUSH LOGS: %s: read the query log as the server wrote it by itself; allow the user SYSTEM queries to read it at once", oneLine(err)))
			}
		}
		var got int64
		err := c.db.QueryRowContext(ctx, fmt.Sprintf("SELECT count() FROM system.query_log WHERE event_date >= yesterday() AND query_id LIKE '%s%%' AND toUInt8(type) != 1 "+
			"AND toUInt64OrZero(substring(query_id, %d)) BETWEEN %d AND %d", c.prefix, len(c.prefix)+1, lo, hi)).Scan(&got)
		if err != nil || got >= n || !time.Now().Before(deadline) {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// logColumns are the query log's columns, which differ by server version.
func (c *statsCapture) logColumns(ctx context.Context) (map[string]bool, error) {
	rows, err := c.db.QueryContext(ctx, "SELECT name FROM system.columns WHERE database = 'system' AND table = 'query_log'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		cols[n] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("the server has no system.query_log")
	}
	return cols, nil
}

// profileEvents sums the chosen ProfileEvents over the run's finished
// queries: two arrays before 21.8, a Map after.
func (c *statsCapture) profileEvents(ctx context.Context, cols map[string]bool) (map[string]int64, error) {
	var join string
	switch {
	case cols["ProfileEvents.Names"]:
		join = "ARRAY JOIN ProfileEvents.Names AS name, ProfileEvents.Values AS value"
	case cols["ProfileEvents"]:
		join = "ARRAY JOIN mapKeys(ProfileEvents) AS name, mapValues(ProfileEvents) AS value"
	default:
		return nil, nil
	}
	return c.pairs(ctx, "SELECT name, sum(value) FROM system.query_log "+join+
		" WHERE event_date >= yesterday() AND query_id LIKE '"+c.prefix+"%' AND toUInt8(type) = 2 AND name IN ('"+strings.Join(profileEvents, "', '")+"') GROUP BY name")
}

// pairs reads a two-column result of names and numbers.
func (c *statsCapture) pairs(ctx context.Context, text string) (map[string]int64, error) {
	rows, err := c.db.QueryContext(ctx, text)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", k, v)
		}
		out[k] = n
	}
	return out, rows.Err()
}

func ptr[T any](v T) *T { return &v }

// oneLine is err on one line.
func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
