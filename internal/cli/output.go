package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/metrics"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/sysinfo"
)

// outputFlags say where the result goes besides the text table on stdout,
// and where live metrics are served.
type outputFlags struct {
	json        string
	quiet       bool
	html        string
	md          string
	csv         string
	metricsAddr string
	noDiskProbe bool
}

func (o *outputFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&o.json, "json", "", "write the result document to this file")
	fs.BoolVar(&o.quiet, "quiet", false, "do not print the result tables on stdout")
	fs.StringVar(&o.html, "html", "", "write a self-contained HTML report with charts to this file")
	fs.StringVar(&o.md, "md", "", "write the result tables as Markdown to this file")
	fs.StringVar(&o.csv, "csv", "", "write one CSV row per run to this file")
	fs.StringVar(&o.metricsAddr, "metrics-addr", "", "serve live Prometheus metrics at http://ADDR/metrics during the run, e.g. 127.0.0.1:9464")
	fs.BoolVar(&o.noDiskProbe, "no-disk-probe", false, "do not measure what one fsync costs on the disk under test (the probe takes up to a second)")
}

// outFile is an output file opened before any run, so that an unwritable
// path fails at once, not after a long benchmark.
type outFile struct {
	flag, path string
	f          *os.File
	write      func(io.Writer, []report.Source) error
}

// session collects the runs of one invocation into a document and writes it
// out.
type session struct {
	env     Env
	flags   outputFlags
	doc     *result.Document
	files   []*outFile
	secrets []string
	family  string
	metrics *metrics.Metrics
	server  *metrics.Server
	// live is the terminal progress line still open, ended by a newline
	// before anything else is printed.
	live *progress
}

func newSession(env Env, flags outputFlags, diskPath string, secrets ...string) (*session, error) {
	s := &session{env: env, flags: flags, secrets: secrets, family: familyOf(env.Args)}
	outs := []*outFile{
		{flag: "json", path: flags.json},
		{flag: "html", path: flags.html, write: report.HTML},
		{flag: "md", path: flags.md, write: report.Markdown},
		{flag: "csv", path: flags.csv, write: report.CSV},
	}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		f, err := os.OpenFile(o.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			s.abort()
			return nil, usagef("cannot write --%s %s: %v", o.flag, o.path, errors.Unwrap(err))
		}
		o.f = f
		s.files = append(s.files, o)
	}
	if flags.metricsAddr != "" {
		if err := s.serveMetrics(flags.metricsAddr); err != nil {
			s.abort()
			return nil, err
		}
	}
	if diskPath == "" && flags.json != "" {
		diskPath = filepath.Dir(flags.json) // server families: the disk the result goes to
	}
	s.doc = &result.Document{
		Schema:    result.Schema,
		Tool:      sysinfo.Tool(),
		StartedAt: time.Now().UTC().Truncate(time.Second),
		Env:       sysinfo.Capture(sysinfo.Options{DiskPath: diskPath, NoDiskProbe: flags.noDiskProbe}),
		Command:   redact.Scrub(strings.Join(redact.Args(append([]string{"dbmeter"}, env.Args...)), " "), secrets...),
		Runs:      []result.Run{},
	}
	return s, nil
}

// familyOf is the subcommand, which names the family for metric labels.
func familyOf(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return "dbmeter"
}

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

// add records a finished run, masking secrets in its params.
func (s *session) add(run result.Run) {
	s.endLine()
	for k, v := range run.Params {
		if strings.Contains(strings.ToLower(k), "password") && v != "" {
			run.Params[k] = redact.Mask
			continue
		}
		run.Params[k] = redact.Scrub(v, s.secrets...)
	}
	s.doc.Runs = append(s.doc.Runs, run)
	s.checkpoint()
}

// checkpoint rewrites the --json file after every run, so that a process
// killed later (an engine that crashes on a full disk, a kill -9) leaves
// the runs that finished on disk. finish writes the final document.
func (s *session) checkpoint() {
	for _, o := range s.files {
		if o.write != nil {
			continue // only the JSON document
		}
		rewriteJSON(o.f, s.doc)
	}
}

// rewriteJSON replaces the contents of f with doc.
func rewriteJSON(f *os.File, doc *result.Document) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	return result.Write(f, doc)
}

// finish writes the document, the reports and the text tables, and says
// whether any run had errors. It is called even when a run was
// interrupted, so nothing measured is lost.
func (s *session) finish(ctx context.Context) error {
	s.endLine()
	s.stopMetrics()
	if ctx.Err() != nil {
		s.doc.Interrupted = true
	}
	var errs []error
	srcs := []report.Source{{Name: s.sourceName(), Doc: s.doc}}
	for _, o := range s.files {
		var err error
		if o.write == nil {
			err = rewriteJSON(o.f, s.doc)
		} else {
			err = o.write(o.f, srcs)
		}
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("write %s: %w", o.path, err))
		}
	}
	if !s.flags.quiet {
		if err := report.Text(s.env.Stdout, s.doc); err != nil {
			errs = append(errs, fmt.Errorf("print report: %w", err))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	var failed []string
	for _, r := range s.doc.Runs {
		if r.Errors > 0 {
			failed = append(failed, fmt.Sprintf("%s/%s: %d errors", r.Target, r.Workload, r.Errors))
		}
	}
	if len(failed) > 0 {
		return runError{fmt.Errorf("operations failed (%s); the result records them by kind", strings.Join(failed, ", "))}
	}
	return nil
}

// sourceName is what the reports call this invocation's document.
func (s *session) sourceName() string {
	if s.flags.json != "" {
		return filepath.Base(s.flags.json)
	}
	return "dbmeter " + s.family
}

// abort removes the output files no run ever wrote to and stops serving
// metrics.
func (s *session) abort() {
	s.endLine()
	s.stopMetrics()
	for _, o := range s.files {
		o.f.Close()
		os.Remove(o.path)
	}
	s.files = nil
}

func (s *session) stopMetrics() {
	if s.server != nil {
		s.server.Close()
		s.server = nil
	}
}

func (s *session) endLine() {
	if s.live != nil {
		s.live.end()
		s.live = nil
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// watcher returns what watches a run: progress on stderr and live metrics,
// or nil. label is "target/workload"; ops names the run's operations in the
// order of load.Tick.Ops (may be omitted when it has one, the workload).
func (s *session) watcher(rf *runFlags, label string, ops ...string) load.Watcher {
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
		target, workload := s.metricLabels(label)
		ws = append(ws, s.metrics.Watcher(s.family, target, workload, ops))
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
