package cli

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/metrics"
)

func (s *session) serveMetrics(addr string) error {
	addr = loopbackDefault(addr)
	m := metrics.New()
	srv, err := metrics.Serve(addr, m)
	if err != nil {
		return usagef("cannot serve --metrics-addr %s: %v", addr, errors.Unwrap(err))
	}
	s.metrics, s.server = m, srv
	if !metrics.IsLoopback(addr) {
		fmt.Fprintf(s.env.Stderr, "dbmeter: warning: --metrics-addr %s is not a loopback address: anyone who can reach this machine can read the metrics\n", addr)
	}
	fmt.Fprintf(s.env.Stderr, "dbmeter: Prometheus metrics at %s\n", srv.URL())
	return nil
}

// loopbackDefault binds ":PORT" to 127.0.0.1 rather than every interface:
// dbmeter's endpoints are for the machine it runs on unless told otherwise.
func loopbackDefault(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil && host == "" {
		return "127.0.0.1" + addr
	}
	return addr
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Watcher implements plan.Sink: progress on stderr as the run flags given
// to showProgress ask, and live metrics, or nil. ops names the run's
// operations in the order of load.Tick.Ops (may be omitted when it has one,
// the workload).
func (s *session) Watcher(family, target, workload string, ops ...string) load.Watcher {
	return s.watch(s.prog, family, target, workload, target+"/"+workload, ops)
}

// showProgress makes runs show progress as rf asks.
func (s *session) showProgress(rf *runFlags) { s.prog = rf }

// watcher is Watcher for a run labelled "target/workload".
func (s *session) watcher(rf *runFlags, label string, ops ...string) load.Watcher {
	target, workload := s.metricLabels(label)
	return s.watch(rf, s.family, target, workload, label, ops)
}

func (s *session) watch(rf *runFlags, family, target, workload, label string, ops []string) load.Watcher {
	var ws watchers
	if rf != nil {
		terminal := isTerminal(s.env.Stderr)
		if rf.progressLines(terminal) {
			p := &progress{w: s.env.Stderr, label: label}
			if terminal {
				p.live = true
				p.width = termWidth(s.env.Stderr)
				p.total, p.count = rf.limit()
				s.endLine()
				s.live = p
			}
			ws = append(ws, p)
		}
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
	switch len(ws) {
	case 0:
		return nil
	case 1:
		return ws[0]
	}
	return ws
}

// metricLabels splits a progress label "target/workload" for the metrics.
// A label that starts with the family ("ch/clickhouse-go-v1") names only
// the target; its workload is then the subcommand ("insert").
func (s *session) metricLabels(label string) (target, workload string) {
	target, workload = label, label
	if i := strings.LastIndex(label, "/"); i >= 0 {
		target, workload = label[:i], label[i+1:]
	}
	if sub := subcommandOf(s.env.Args); sub != "" && target == s.family {
		return workload, sub
	}
	return target, workload
}

// subcommandOf is the second word of the command line ("insert" in
// "ch insert"), "" when there is none.
func subcommandOf(args []string) string {
	var words []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			break
		}
		words = append(words, a)
	}
	if len(words) < 2 {
		return ""
	}
	return words[1]
}

// watchers fans one tick out to several watchers, in order.
type watchers []load.Watcher

func (ws watchers) Tick(t load.Tick) {
	for _, w := range ws {
		w.Tick(t)
	}
}

func termWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil {
			return width
		}
	}
	return 0
}
