// Package sink is where a command's runs go: it assembles the result
// document, checkpoints it after every run, writes the reports (JSON, HTML,
// Markdown, CSV, an HdrHistogram interval log), shows progress and serves
// live metrics. It implements plan.Sink, so any family's plan runs into it.
package sink

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dbmeter/dbmeter/internal/hlog"
	"github.com/dbmeter/dbmeter/internal/metrics"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/sysinfo"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Options say where the result goes besides the text tables on stdout.
// Empty paths write nothing. The sink's messages name a setting as its
// field ({JSON}, {HDRLog}, {MetricsAddr}): the CLI spells the flag.
type Options struct {
	JSON, HTML, MD, CSV string
	HDRLog              string // HdrHistogram interval log of every interval
	MetricsAddr         string // serve live Prometheus metrics here
	Quiet               bool   // no tables on stdout
	NoDiskProbe         bool   // skip the fsync probe of the disk
	// Settings declares the invocation's settings and Observed holds the
	// values of those that only observe it: the document records both.
	Settings map[string]result.Setting
	Observed map[string]string
}

// IO is the process state a sink writes to.
type IO struct {
	Stdout, Stderr io.Writer
	Args           []string // the command line, recorded with secrets masked
}

// ErrRunsFailed says a run counted failed operations; Finish wraps it.
var ErrRunsFailed = errors.New("operations failed")

// outFile is an output file opened before any run, so that an unwritable
// path fails at once, not after a long benchmark.
type outFile struct {
	field, path string // field: the Options field that names it, as {Field}
	f           *os.File
	write       func(io.Writer, []report.Source) error
}

// Sink collects the runs of one invocation into a document and writes it
// out. It is used by one goroutine at a time.
type Sink struct {
	io      IO
	flags   Options
	doc     *result.Document
	files   []*outFile
	secrets []string
	family  string
	metrics *metrics.Metrics
	server  *metrics.Server
	// live is the terminal progress line still open, ended by a newline
	// before anything else is printed.
	live *progress
	// prog says how runs show progress.
	prog Progress
	// hlog writes the intervals to --hdr-log, as they end.
	hlog     *hlog.Writer
	hlogFile *os.File
	// checkpointFailed: a checkpoint's error has been said already.
	checkpointFailed bool
	// machine watches how busy the machine is, and takes its reference.
	machine *sysinfo.Monitor
}

// Open opens the outputs of one invocation of family's command, before any
// run, so that an unwritable path fails at once. diskPath is the directory
// the runs write to (kv's data), for the disk probe; secrets are masked in
// everything written.
func Open(pio IO, family string, flags Options, diskPath string, secrets ...string) (*Sink, error) {
	s := &Sink{io: pio, flags: flags, secrets: secrets, family: family}
	outs := []*outFile{
		{field: "JSON", path: flags.JSON},
		{field: "HTML", path: flags.HTML, write: report.HTML},
		{field: "MD", path: flags.MD, write: report.Markdown},
		{field: "CSV", path: flags.CSV, write: report.CSV},
	}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		f, err := os.OpenFile(o.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			s.Abort()
			return nil, usage.Wrap(fmt.Errorf("cannot write {%s} %s: %v", o.field, o.path, errors.Unwrap(err)))
		}
		o.f = f
		s.files = append(s.files, o)
	}
	if flags.HDRLog != "" {
		f, err := os.OpenFile(flags.HDRLog, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			s.Abort()
			return nil, usage.Wrap(fmt.Errorf("cannot write {HDRLog} %s: %v", flags.HDRLog, errors.Unwrap(err)))
		}
		s.hlogFile = f
		if s.hlog, err = hlog.NewWriter(f, time.Now()); err != nil {
			s.Abort()
			return nil, err
		}
	}
	if flags.MetricsAddr != "" {
		if err := s.serveMetrics(flags.MetricsAddr); err != nil {
			s.Abort()
			return nil, err
		}
	}
	if diskPath == "" && flags.JSON != "" {
		diskPath = filepath.Dir(flags.JSON) // server families: the disk the result goes to
	}
	s.doc = &result.Document{
		Schema:    result.Schema,
		Tool:      sysinfo.Tool(),
		StartedAt: time.Now().UTC().Truncate(time.Second),
		Env:       sysinfo.Capture(sysinfo.Options{DiskPath: diskPath, NoDiskProbe: flags.NoDiskProbe}),
		Command:   redact.Scrub(strings.Join(redact.Args(append([]string{"dbmeter"}, pio.Args...)), " "), secrets...),
		Settings:  flags.Settings,
		Observed:  scrubbed(flags.Observed, secrets),
		Runs:      []result.Run{},
	}
	s.machine = sysinfo.Watch(machineInterval)
	s.machine.Reference("start")
	return s, nil
}

// scrubbed is m with secrets masked; nil when m is empty.
func scrubbed(m map[string]string, secrets []string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = redact.Scrub(v, secrets...)
	}
	return out
}

// machineInterval is how often the machine's state is sampled.
const machineInterval = time.Second

// BetweenRounds takes the machine reference before round n of a plan
// that runs in rounds (plan.Rounds).
func (s *Sink) BetweenRounds(n int) {
	if s.machine != nil {
		s.machine.Reference(fmt.Sprintf("round %d", n))
	}
}

// stopMachine takes the reference a last time and puts what the watch saw
// in the document.
func (s *Sink) stopMachine(reference bool) {
	if s.machine == nil {
		return
	}
	if reference {
		s.machine.Reference("end")
	}
	s.doc.Machine = s.machine.Stop()
	s.machine = nil
}

// maxSample bounds a kept error message: a server may quote a whole
// statement back.
const maxSample = 300

// shorten cuts s to at most n bytes, on a character boundary, marking the
// cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Add records finished runs, masking secrets in their params, warnings and
// error messages (before shortening them, so no secret is cut in two), and
// checkpoints the JSON document.
func (s *Sink) Add(runs ...result.Run) {
	s.endLine()
	for _, run := range runs {
		for k, v := range run.Params {
			if strings.Contains(strings.ToLower(k), "password") && v != "" {
				run.Params[k] = redact.Mask
				continue
			}
			run.Params[k] = redact.Scrub(v, s.secrets...)
		}
		for k, v := range run.ErrorSamples {
			run.ErrorSamples[k] = shorten(redact.Scrub(v, s.secrets...), maxSample)
		}
		for i, w := range run.Warnings {
			run.Warnings[i] = redact.Scrub(w, s.secrets...)
		}
		s.doc.Env.NoteExternal(&run)
		s.doc.Runs = append(s.doc.Runs, run)
		s.stepLine(run)
	}
	s.checkpoint()
}

// checkpoint rewrites the --json file after every run, so that a process
// killed later (an engine that crashes on a full disk, a kill -9) leaves
// the runs that finished on disk. finish writes the final document.
//
// A checkpoint that fails (a full disk) is said once, on stderr: the runs
// stay in memory, and Finish tries the whole document again and reports
// its own error.
func (s *Sink) checkpoint() {
	for _, o := range s.files {
		if o.write != nil {
			continue // only the JSON document
		}
		if err := rewriteJSON(o.f, s.doc); err != nil && !s.checkpointFailed {
			s.checkpointFailed = true
			fmt.Fprintf(s.io.Stderr, "dbmeter: cannot checkpoint {JSON} %s: %v; the runs so far are kept and written again at the end\n", o.path, err)
		}
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

// Finish writes the document, the reports and the text tables, and says
// whether any run had errors. It is called even when a run was
// interrupted, so nothing measured is lost.
func (s *Sink) Finish(ctx context.Context) error {
	s.endLine()
	s.stopMetrics()
	if ctx.Err() != nil {
		s.doc.Interrupted = true
	} else {
		// A variant that completed nothing has no figure to read: the run
		// did not measure what it was asked to, even without a failed
		// operation. The document says which, before it is written.
		s.doc.Empty = report.EmptyVariants(s.doc)
	}
	s.stopMachine(ctx.Err() == nil)
	var errs []error
	if err := s.closeHDRLog(); err != nil {
		errs = append(errs, fmt.Errorf("write %s: %w", s.flags.HDRLog, err))
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
	if !s.flags.Quiet {
		if err := report.Text(s.io.Stdout, s.doc); err != nil {
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
	var out []error
	if len(failed) > 0 {
		out = append(out, fmt.Errorf("%w (%s); the result records them by kind", ErrRunsFailed, strings.Join(failed, ", ")))
	}
	for _, line := range s.doc.Empty {
		out = append(out, fmt.Errorf("%w: %s", ErrNothingCompleted, line))
	}
	return errors.Join(out...)
}

// ErrNothingCompleted says a variant of the runs completed no operation;
// Finish wraps it with which and why.
var ErrNothingCompleted = errors.New("no figure")

// sourceName is what the reports call this invocation's document.
func (s *Sink) sourceName() string {
	if s.flags.JSON != "" {
		return filepath.Base(s.flags.JSON)
	}
	return "dbmeter " + s.family
}

// Abort removes the output files no run ever wrote to and stops serving
// metrics.
func (s *Sink) Abort() {
	s.endLine()
	s.stopMetrics()
	s.stopMachine(false)
	for _, o := range s.files {
		o.f.Close()
		os.Remove(o.path)
	}
	s.files = nil
	if s.hlogFile != nil {
		s.closeHDRLog()
		os.Remove(s.flags.HDRLog)
	}
}

func (s *Sink) closeHDRLog() error {
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

func (s *Sink) stopMetrics() {
	if s.server != nil {
		s.server.Close()
		s.server = nil
	}
}

func (s *Sink) endLine() {
	if s.live != nil {
		s.live.end()
		s.live = nil
	}
}

// Execute runs p, writes what it measured and says how it went. A plan that
// failed before measuring anything leaves no output files behind.
func (s *Sink) Execute(ctx context.Context, p plan.Plan) error {
	runErr := plan.Execute(ctx, p, s)
	if runErr != nil && len(s.doc.Runs) == 0 {
		s.Abort()
		return runErr
	}
	if err := s.Finish(ctx); err != nil {
		return errors.Join(runErr, err)
	}
	return runErr
}

// Doc is the document being assembled.
func (s *Sink) Doc() *result.Document { return s.doc }

// SetQuiet stops the tables on stdout (a command that printed its own).
func (s *Sink) SetQuiet() { s.flags.Quiet = true }
