package report

import (
	"fmt"

	"github.com/dbmeter/dbmeter/internal/result"
)

// LagShare is the share of a latency percentile that dbmeter's own
// schedule lag may reach before a table warns that dbmeter, not the
// target, made that part of the tail. An open-loop operation's latency
// runs from its intended start, so a late start is in it; a quarter is
// where the tail stops being mostly the target's.
const LagShare = 0.25

// lagCell is a run's schedule-lag p99 for a table: "-" in closed loop,
// where operations have no schedule.
func lagCell(r *result.Run) string {
	if r.Mode != "open" {
		return "-"
	}
	return Nanos(r.Lag.P99)
}

// lagNote is the warning for an open-loop run whose schedule lag is more
// than LagShare of its latency p99; "" otherwise.
func lagNote(r *result.Run) string {
	if r.Mode != "open" || r.Latency.P99 <= 0 || float64(r.Lag.P99) <= LagShare*float64(r.Latency.P99) {
		return ""
	}
	return fmt.Sprintf("schedule lag p99 %s is %.0f%% of the latency p99 %s: dbmeter, not the target, made that much of the tail (it started operations late: its CPU, its timers, or a busy machine)",
		Nanos(r.Lag.P99), 100*float64(r.Lag.P99)/float64(r.Latency.P99), Nanos(r.Latency.P99))
}
