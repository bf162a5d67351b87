package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/sysinfo"
)

// outputFlags say where the result goes besides the text table on stdout.
type outputFlags struct {
	json  string
	quiet bool
}

func (o *outputFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&o.json, "json", "", "write the result document to this file")
	fs.BoolVar(&o.quiet, "quiet", false, "do not print the result tables on stdout")
}

// session collects the runs of one invocation into a document and writes it
// out. Output files are opened before any run so that an unwritable path
// fails at once, not after a long benchmark.
type session struct {
	env      Env
	flags    outputFlags
	doc      *result.Document
	jsonFile *os.File
	secrets  []string
}

func newSession(env Env, flags outputFlags, diskPath string, secrets ...string) (*session, error) {
	s := &session{env: env, flags: flags, secrets: secrets}
	if flags.json != "" {
		f, err := os.OpenFile(flags.json, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return nil, usagef("cannot write --json %s: %v", flags.json, errors.Unwrap(err))
		}
		s.jsonFile = f
	}
	s.doc = &result.Document{
		Schema:    result.Schema,
		Tool:      result.Tool{Name: "dbmeter", Version: sysinfo.Version()},
		StartedAt: time.Now().UTC().Truncate(time.Second),
		Env:       sysinfo.Capture(diskPath),
		Command:   redact.Scrub(strings.Join(redact.Args(append([]string{"dbmeter"}, env.Args...)), " "), secrets...),
		Runs:      []result.Run{},
	}
	return s, nil
}

// add records a finished run, masking secrets in its params.
func (s *session) add(run result.Run) {
	for k, v := range run.Params {
		if strings.Contains(strings.ToLower(k), "password") && v != "" {
			run.Params[k] = redact.Mask
			continue
		}
		run.Params[k] = redact.Scrub(v, s.secrets...)
	}
	s.doc.Runs = append(s.doc.Runs, run)
}

// finish writes the document and the text report, and says whether any run
// had errors. It is called even when a run was interrupted, so nothing
// measured is lost.
func (s *session) finish(ctx context.Context) error {
	if ctx.Err() != nil {
		s.doc.Interrupted = true
	}
	var errs []error
	if s.jsonFile != nil {
		err := result.Write(s.jsonFile, s.doc)
		if cerr := s.jsonFile.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("write %s: %w", s.flags.json, err))
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

// abort removes a --json file that no run ever wrote to.
func (s *session) abort() {
	if s.jsonFile != nil {
		s.jsonFile.Close()
		os.Remove(s.flags.json)
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress prints one line per interval on stderr.
type progress struct {
	w     io.Writer
	label string
}

func (p progress) Tick(t load.Tick) {
	iv := t.Interval
	line := fmt.Sprintf("%7.1fs %-28s %12.0f ops/s  p50 %9s  p99 %9s  errors %d",
		iv.TS, p.label, float64(iv.Ops)/t.Seconds, report.Nanos(iv.P50), report.Nanos(iv.P99), iv.Errors)
	if iv.Dropped > 0 {
		line += fmt.Sprintf("  dropped %d", iv.Dropped)
	}
	fmt.Fprintln(p.w, line)
}

// watcher returns the progress watcher for a run, or nil.
func (s *session) watcher(rf *runFlags, label string) load.Watcher {
	if !rf.progressLines(isTerminal(s.env.Stderr)) {
		return nil
	}
	return progress{w: s.env.Stderr, label: label}
}
