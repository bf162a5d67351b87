package bench

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/pg/script"
)

// TxLog is pgbench's -l: one writer per thread, each line a transaction
// (client_id transaction_no time script_no time_epoch time_us [retries])
// or, with an aggregate interval, one line per interval (interval_start
// num_transactions sum_latency sum_latency_2 min_latency max_latency
// sum_lag sum_lag_2 min_lag max_lag skipped retried retries
// serialization_failures deadlock_failures), as pgbench 15 writes them.
type TxLog struct {
	// Open returns the writer for thread i; the caller closes it.
	Open func(thread int) (io.WriteCloser, error)
	// Aggregate is --aggregate-interval; 0 logs every transaction.
	Aggregate time.Duration
	// SamplingRate is --sampling-rate, in (0, 1]; 0 means 1.
	SamplingRate float64
}

// threadLog is one thread's log file and aggregate.
type threadLog struct {
	mu     sync.Mutex
	w      *bufio.Writer
	c      io.Closer
	sample *script.PRNG
	agg    aggStats
	err    error
}

type aggStats struct {
	start                   int64 // interval start, Unix seconds
	cnt                     int64
	sum, sum2, min, max     float64
	lag                     [4]float64 // -R: sum, sum of squares, min, max
	skipped                 int64
	retried, retries        int64
	serialization, deadlock int64
}

// txRecord is what a client logs about one transaction.
type txRecord struct {
	client, script int
	n              int64 // the client's transaction number, from 1
	latency        time.Duration
	lag            time.Duration // -R: actual start − scheduled start
	end            time.Time
	skipped        bool // -R -L: never run, already too late
	failed         bool
	deadlock       bool
	tries          int
}

func (b *Bench) openLogs() error {
	lg := b.cfg.Log
	for i := range b.seeds.Sample {
		w, err := lg.Open(i)
		if err != nil {
			b.CloseLogs()
			return fmt.Errorf("open the transaction log: %w", err)
		}
		b.logs = append(b.logs, &threadLog{w: bufio.NewWriter(w), c: w, sample: &b.seeds.Sample[i]})
	}
	return nil
}

// CloseLogs writes the aggregate intervals that ended before now (as
// pgbench, not the last, partial one) and closes the log files.
func (b *Bench) CloseLogs() error {
	var first error
	now := time.Now().UnixMicro()
	for _, l := range b.logs {
		l.mu.Lock()
		if step := b.cfg.Log.Aggregate.Microseconds(); step > 0 && l.agg.start != 0 {
			for now >= l.agg.start+step {
				b.writeAgg(l)
				l.agg = aggStats{start: l.agg.start + step}
			}
		}
		if err := l.w.Flush(); err != nil && first == nil {
			first = err
		}
		if err := l.c.Close(); err != nil && first == nil {
			first = err
		}
		if l.err != nil && first == nil {
			first = l.err
		}
		l.mu.Unlock()
	}
	b.logs = nil
	return first
}

// logTx writes or aggregates one transaction in its thread's log.
func (b *Bench) logTx(thread int, r txRecord) {
	if thread >= len(b.logs) {
		return
	}
	l := b.logs[thread]
	l.mu.Lock()
	defer l.mu.Unlock()
	us := float64(r.latency.Microseconds())
	if agg := b.cfg.Log.Aggregate; agg > 0 {
		// Intervals start when the thread's first transaction started,
		// as pgbench's start at the thread's start.
		step := agg.Microseconds()
		now := r.end.UnixMicro()
		if l.agg.start == 0 {
			l.agg = aggStats{start: r.end.Add(-r.latency).UnixMicro()}
		}
		for now >= l.agg.start+step {
			b.writeAgg(l)
			l.agg = aggStats{start: l.agg.start + step}
		}
		a := &l.agg
		if r.skipped {
			a.skipped++
			return
		}
		if r.tries > 1 {
			a.retried++
			a.retries += int64(r.tries - 1)
		}
		switch {
		case r.failed && r.deadlock:
			a.deadlock++
		case r.failed:
			a.serialization++
		default:
			if a.cnt == 0 || us < a.min {
				a.min = us
			}
			if a.cnt == 0 || us > a.max {
				a.max = us
			}
			if lag := float64(r.lag.Microseconds()); b.cfg.Throttled {
				if a.cnt == 0 || lag < a.lag[2] {
					a.lag[2] = lag
				}
				if a.cnt == 0 || lag > a.lag[3] {
					a.lag[3] = lag
				}
				a.lag[0] += lag
				a.lag[1] += lag * lag
			}
			a.cnt++
			a.sum += us
			a.sum2 += us * us
		}
		return
	}
	if rate := b.cfg.Log.SamplingRate; rate > 0 && rate < 1 && l.sample.Float64() > rate {
		return
	}
	t := fmt.Sprintf("%.0f", us)
	switch {
	case r.skipped:
		t = "skipped"
	case r.failed:
		t = "failed"
	}
	fmt.Fprintf(l.w, "%d %d %s %d %d %d", r.client, r.n, t, r.script, r.end.Unix(), r.end.Nanosecond()/1000)
	if b.cfg.Throttled {
		fmt.Fprintf(l.w, " %.0f", float64(r.lag.Microseconds()))
	}
	if b.cfg.MaxTries != 0 && b.cfg.MaxTries != 1 {
		fmt.Fprintf(l.w, " %d", r.tries-1)
	}
	l.w.WriteByte('\n')
}

func (b *Bench) writeAgg(l *threadLog) {
	a := l.agg
	_, err := fmt.Fprintf(l.w, "%d %d %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %d %d %d %d %d\n",
		a.start/1_000_000, a.cnt, a.sum, a.sum2, a.min, math.Max(a.max, 0), a.lag[0], a.lag[1], a.lag[2], a.lag[3],
		a.skipped, a.retried, a.retries, a.serialization, a.deadlock)
	if err != nil && l.err == nil {
		l.err = err
	}
}
