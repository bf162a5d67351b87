package sink

import (
	"fmt"
	"io"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
)

// progress shows each interval on stderr. On a terminal (live) it rewrites
// one line with the elapsed and total time, the current rate and p99;
// otherwise it prints a line per interval, which logs keep.
type progress struct {
	w     io.Writer
	label string
	live  bool
	width int           // terminal columns; 0: unknown
	total time.Duration // the measured window; 0 in count mode
	count int64         // count mode: operations to run
	done  int64         // operations so far
	open  bool          // a live line is on screen without its newline
}

func (p *progress) Tick(t load.Tick) {
	iv := t.Interval
	rate := 0.0
	if t.Seconds > 0 {
		rate = float64(iv.Ops) / t.Seconds
	}
	p.done += iv.Ops + iv.Errors
	if !p.live {
		line := fmt.Sprintf("%7.1fs %-28s %12.0f ops/s  p50 %9s  p99 %9s  errors %d",
			iv.TS, p.label, rate, report.Nanos(iv.P50), report.Nanos(iv.P99), iv.Errors)
		if iv.Dropped > 0 {
			line += fmt.Sprintf("  dropped %d", iv.Dropped)
		}
		fmt.Fprintln(p.w, line)
		return
	}
	fmt.Fprint(p.w, "\r\033[K"+p.fit(p.liveLine(iv.TS, rate, iv)))
	p.open = true
}

// liveLine is the one-line display: where the run is, and how it goes now.
func (p *progress) liveLine(ts, rate float64, iv result.Interval) string {
	var where string
	switch {
	case p.count > 0:
		where = fmt.Sprintf("%s/%s ops (%3.0f%%)", report.Count(float64(p.done)), report.Count(float64(p.count)), 100*float64(p.done)/float64(p.count))
	case p.total > 0:
		where = fmt.Sprintf("%s/%s (%3.0f%%)", fmtSecs(ts), fmtSecs(p.total.Seconds()), min(100, 100*ts/p.total.Seconds()))
	default:
		where = fmtSecs(ts)
	}
	s := fmt.Sprintf("%s  %s  %s ops/s  p99 %s  errors %d", p.label, where, report.Count(rate), report.Nanos(iv.P99), iv.Errors)
	if iv.Dropped > 0 {
		s += fmt.Sprintf("  dropped %d", iv.Dropped)
	}
	return s
}

// fit keeps the line within the terminal, or \r would rewrite only its
// last wrapped row.
func (p *progress) fit(s string) string {
	if p.width <= 1 {
		return s
	}
	r := []rune(s)
	if len(r) >= p.width {
		return string(r[:p.width-1])
	}
	return s
}

// end closes the live line so the next output starts on a line of its own.
func (p *progress) end() {
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

// fmtSecs prints seconds as 4.2s under a minute and as 1m30s above.
func fmtSecs(s float64) string {
	if s < 60 {
		return fmt.Sprintf("%.1fs", s)
	}
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}
