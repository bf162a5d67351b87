package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/hlog"
	"github.com/dbmeter/dbmeter/internal/metrics"
	"github.com/dbmeter/dbmeter/internal/plan"
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
	hdrLog      string
	noDiskProbe bool
}

func (o *outputFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&o.json, "json", "", "write the result document to this file")
	fs.BoolVar(&o.quiet, "quiet", false, "do not print the result tables on stdout")
	fs.StringVar(&o.html, "html", "", "write a self-contained HTML report with charts to this file")
	fs.StringVar(&o.md, "md", "", "write the result tables as Markdown to this file")
	fs.StringVar(&o.csv, "csv", "", "write one CSV row per run to this file")
	fs.StringVar(&o.metricsAddr, "metrics-addr", "", "serve live Prometheus metrics at http://ADDR/metrics during the run, e.g. 127.0.0.1:9464")
	fs.StringVar(&o.hdrLog, "hdr-log", "", "write every interval's latency histograms to this HdrHistogram interval log (.hlog)")
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
	// prog says how runs show progress; nil: no progress lines.
	prog *runFlags
	// hlog writes the intervals to --hdr-log, as they end.
	hlog     *hlog.Writer
	hlogFile *os.File
}

// newSession opens the output files of one invocation of family's command.
func newSession(env Env, family string, flags outputFlags, diskPath string, secrets ...string) (*session, error) {
	s := &session{env: env, flags: flags, secrets: secrets, family: family}
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
	if flags.hdrLog != "" {
		f, err := os.OpenFile(flags.hdrLog, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			s.abort()
			return nil, usagef("cannot write --hdr-log %s: %v", flags.hdrLog, errors.Unwrap(err))
		}
		s.hlogFile = f
		if s.hlog, err = hlog.NewWriter(f, time.Now()); err != nil {
			s.abort()
			return nil, err
		}
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

// Add records finished runs, masking secrets in their params, and
// checkpoints the JSON document.
func (s *session) Add(runs ...result.Run) {
	s.endLine()
	for _, run := range runs {
		for k, v := range run.Params {
			if strings.Contains(strings.ToLower(k), "password") && v != "" {
				run.Params[k] = redact.Mask
				continue
			}
			run.Params[k] = redact.Scrub(v, s.secrets...)
		}
		s.doc.Runs = append(s.doc.Runs, run)
		s.stepLine(run)
	}
	s.checkpoint()
}

func (s *session) add(run result.Run) { s.Add(run) }

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
	if err := s.closeHDRLog(); err != nil {
		errs = append(errs, fmt.Errorf("write %s: %w", s.flags.hdrLog, err))
	}
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
	if s.hlogFile != nil {
		s.closeHDRLog()
		os.Remove(s.flags.hdrLog)
	}
}

func (s *session) closeHDRLog() error {
	if s.hlogFile == nil {
		return nil
	}
	err := s.hlog.Err()
	if cerr := s.hlogFile.Close(); err == nil {
		err = cerr
	}
	s.hlogFile = nil
	return err
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

// execute runs p, writes what it measured and says how it went. A plan that
// failed before measuring anything leaves no output files behind.
func (s *session) execute(ctx context.Context, p plan.Plan) error {
	runErr := plan.Execute(ctx, p, s)
	if runErr != nil && len(s.doc.Runs) == 0 {
		s.abort()
		return runErr
	}
	if err := s.finish(ctx); err != nil {
		return errors.Join(runErr, err)
	}
	return runErr
}
