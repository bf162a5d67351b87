package bench

import (
	"fmt"
	"strconv"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Figures is what Describe needs to know about a run beyond its results
// and its Bench's Config.
type Figures struct {
	DSN    string // the server's, as the run connected
	Scale  int64  // :scale
	Driver string
	Jobs   int // -j
}

// Describe adds to run what pgbench reports and the load engine does not
// know: the params the pg report prints and the family's extra figures.
func (b *Bench) Describe(run *result.Run, res *load.Result, cfg load.Config, f Figures) {
	pr := run.Params
	pr["dsn"] = f.DSN // masked by session.add
	pr["driver"] = f.Driver
	pr["scale"] = strconv.FormatInt(f.Scale, 10)
	pr[result.SettingQueryMode] = b.cfg.Mode.String()
	// -L, recorded from the value that counted late_ops below (and, with
	// -R, skipped transactions in load), so the setting the report prints
	// beside those counts is the one they were counted by.
	pr[result.SettingLatencyLimit] = strconv.FormatFloat(float64(b.cfg.LatencyLimit)/float64(time.Millisecond), 'f', -1, 64)
	pr[result.SettingTransactionType] = "multiple scripts"
	if len(b.cfg.Scripts) == 1 {
		pr[result.SettingTransactionType] = b.cfg.Scripts[0].Script.Name
	}
	x := FigureDeclarations()
	conn := b.ConnectTimes()
	// Connections are not phases of the measured transactions (the initial
	// ones come before the window), so their time is a figure of its own.
	x.Set(run, "connections", float64(conn.TotalCount()))
	x.Set(run, "connect_ns_p99", float64(conn.ValueAtQuantile(99)))
	// pgbench's "initial connection time" is the connecting time summed over
	// clients and divided by threads: each thread connects its clients in
	// turn.
	x.Set(run, "initial_connection_time_ns", conn.Mean()*float64(conn.TotalCount())/float64(max(f.Jobs, 1)))
	x.Set(run, "reconnects", float64(b.Reconnects()))
	if b.cfg.ConnectPerTx {
		x.Set(run, "average_connection_time_ns", conn.Mean())
	}
	if b.cfg.PerCommand {
		for _, c := range b.CommandStats() {
			key := fmt.Sprintf("command_%d_%d", c.Script, c.Command)
			pr[key] = c.Text
			x.Set(run, key+"_count", float64(c.Count))
			x.Set(run, key+"_latency_ns_mean", float64(c.Mean))
			x.Set(run, key+"_failures", float64(c.Failures))
			x.Set(run, key+"_retries", float64(c.Retries))
		}
	}
	retries, retried := b.Retries()
	x.Set(run, "retries", float64(retries))
	x.Set(run, "retried_ops", float64(retried))
	x.Set(run, "deadlock_failures", float64(b.Deadlocks()))
	all := res.Set.Total()
	if cfg.Open() {
		// pgbench's schedule lag: each transaction's actual start minus its
		// scheduled one, which the runner records as the run's lag.
		x.Set(run, "schedule_lag_ns_mean", run.Lag.Mean)
		x.Set(run, "skipped_ops", float64(run.Dropped))
	}
	if b.cfg.LatencyLimit > 0 {
		x.Set(run, "late_ops", float64(above(all.Latency, int64(b.cfg.LatencyLimit))))
	}
	if len(b.cfg.Scripts) > 1 {
		for i, w := range b.cfg.Scripts {
			st := res.Stats(i)
			key := fmt.Sprintf("script_%d", i+1)
			pr[key] = w.Script.Name
			pr[key+"_weight"] = strconv.Itoa(w.Weight)
			x.Set(run, key+"_ops", float64(st.Ops))
			x.Set(run, key+"_errors", float64(st.Errors))
			x.Set(run, key+"_latency_ns_mean", st.Latency.Mean)
			x.Set(run, key+"_latency_ns_stddev", st.Latency.Stddev)
		}
	}
}

// FigureDeclarations declares the extra figures Describe writes, with how
// the shards of one test merge them.
func FigureDeclarations() result.Declarations {
	return result.Declarations{
		"connections": result.Sum("connections"),
		// A percentile of each shard's own connections: shards agree on it
		// only by chance.
		"connect_ns_p99":             result.Equal("ns"),
		"initial_connection_time_ns": result.Max("ns"),
		"reconnects":                 result.Sum("reconnects"),
		"average_connection_time_ns": result.Mean("ns", "connections"),
		"command_*_count":            result.Sum("executions"),
		"command_*_latency_ns_mean":  result.Mean("ns", "command_*_count"),
		"command_*_failures":         result.Sum("transactions"),
		"command_*_retries":          result.Sum("retries"),
		"retries":                    result.Sum("retries"),
		"retried_ops":                result.Sum("transactions"),
		"deadlock_failures":          result.Sum("transactions"),
		"schedule_lag_ns_mean":       result.Mean("ns", "ops"),
		"skipped_ops":                result.Sum("transactions"),
		"late_ops":                   result.Sum("transactions"),
		"script_*_ops":               result.Sum("transactions"),
		"script_*_errors":            result.Sum("transactions"),
		"script_*_latency_ns_mean":   result.Mean("ns", "script_*_ops"),
		"script_*_latency_ns_stddev": result.Stddev("ns", "script_*_latency_ns_mean"),
	}
}

// above counts the recorded values greater than limit.
func above(h *hdrhistogram.Histogram, limit int64) int64 {
	var n int64
	for _, b := range h.Distribution() {
		if b.From > limit {
			n += b.Count
		}
	}
	return n
}
