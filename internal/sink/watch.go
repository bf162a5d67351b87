package sink

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/metrics"
	"github.com/dbmeter/dbmeter/internal/usage"
)

func (s *Sink) serveMetrics(addr string) error {
	addr = metrics.LoopbackDefault(addr)
	m := metrics.New()
	srv, err := metrics.Serve(addr, m)
	if err != nil {
		return usage.Wrap(fmt.Errorf("cannot serve {MetricsAddr} %s: %v", addr, errors.Unwrap(err)))
	}
	s.metrics, s.server = m, srv
	if !metrics.IsLoopback(addr) {
		fmt.Fprintf(s.io.Stderr, "dbmeter: warning: {MetricsAddr} %s is not a loopback address: anyone who can reach this machine can read the metrics\n", addr)
	}
	fmt.Fprintf(s.io.Stderr, "dbmeter: Prometheus metrics at %s\n", srv.URL())
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Progress says how runs show their intervals on stderr: on a terminal a
// live line, otherwise a line per interval when Asked.
type Progress struct {
	Interval bool          // runs have intervals
	Asked    bool          // --progress was given
	Total    time.Duration // a run's measured window; 0 in count mode
	Count    int64         // count mode: operations per run
}

// Watcher implements plan.Sink: progress on stderr as ShowProgress asked,
// live metrics and the interval log, or nil. ops names the run's operations
// in the order of load.Tick.Ops (may be omitted when it has one, the
// workload).
func (s *Sink) Watcher(family, target, workload string, ops ...string) load.Watcher {
	return s.watch(s.prog, family, target, workload, target+"/"+workload, ops)
}

// ShowProgress makes runs show progress as p says.
func (s *Sink) ShowProgress(p Progress) { s.prog = p }

func (s *Sink) watch(pr Progress, family, target, workload, label string, ops []string) load.Watcher {
	var ws load.Watchers
	terminal := isTerminal(s.io.Stderr)
	if pr.Interval && (terminal || pr.Asked) {
		p := &progress{w: s.io.Stderr, label: label}
		if terminal {
			p.live = true
			p.width = termWidth(s.io.Stderr)
			p.total, p.count = pr.Total, pr.Count
			s.endLine()
			s.live = p
		}
		ws = append(ws, p)
	}
	if s.metrics != nil {
		ws = append(ws, s.metrics.Watcher(family, target, workload, ops))
	}
	if s.hlog != nil {
		if len(ops) == 0 {
			ops = []string{workload}
		}
		ws = append(ws, s.hlog.Watcher(target, workload, ops))
	}
	return ws.Watcher()
}

func termWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil {
			return width
		}
	}
	return 0
}
