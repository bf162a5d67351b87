package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/study"
)

// stepRunner runs each step of a study as a process of its own: this
// binary (os.Executable) with the step's command line, its result document
// written to a temporary file (--json) and read once. A step so has its
// own heap, its own peak resident set (kv's peak_rss_bytes) and, under
// --storage-profile, its own cgroup, the study process outside it. The
// child's exit status says how the step went: 0 ran, exitCannotRun cannot
// run here (its one-line reason on stderr), 128+signal interrupted, any
// other failed.
type stepRunner struct {
	exe    string    // the dbmeter binary
	stderr io.Writer // the study's stderr: the steps' progress and messages
	// share is a directory of the study's own, removed by close: its
	// steps under the provisioned storage profile scale by one probe of
	// the device kept there (storageProbeShareEnv).
	share string
}

func newStepRunner(env Env) (stepRunner, error) {
	exe, err := os.Executable()
	if err != nil {
		return stepRunner{}, fmt.Errorf("find dbmeter's own binary to run the study's steps: %w", err)
	}
	share, err := os.MkdirTemp("", "dbmeter-study-")
	if err != nil {
		return stepRunner{}, fmt.Errorf("a directory for the study's steps: %w", err)
	}
	return stepRunner{exe: exe, stderr: env.Stderr, share: share}, nil
}

// close removes what the study's steps shared.
func (r stepRunner) close() error { return os.RemoveAll(r.share) }

func (r stepRunner) Step(ctx context.Context, args []string, wantResult bool) (*result.Document, error) {
	var path string
	if wantResult {
		f, err := os.CreateTemp("", "dbmeter-step-*.json")
		if err != nil {
			return nil, fmt.Errorf("a file for the step's result: %w", err)
		}
		path = f.Name()
		f.Close()
		defer os.Remove(path)
		args = append(append([]string{}, args...), "--json", path, "--quiet")
	}
	last := &lastLine{w: r.stderr}
	cmd := exec.Command(r.exe, args...)
	cmd.Env = append(os.Environ(), storageProbeShareEnv+"="+filepath.Join(r.share, "storage-probe.json"))
	cmd.Stdout, cmd.Stderr = nil, last // stdout: the tables, which --quiet leaves out
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", r.exe, err)
	}
	// The child has a process group of its own (a terminal's ^C reaches
	// the study alone): the study passes the signal on, once, so the step
	// stops and writes what it measured as a run of dbmeter would.
	stop := context.AfterFunc(ctx, func() { cmd.Process.Signal(forwarded(ctx)) })
	err := cmd.Wait()
	stop()
	if err == nil || ctx.Err() != nil {
		// The study's line about the step will not say the step's last
		// line: it ran, or was interrupted.
		last.flush()
	}
	var doc *result.Document
	if path != "" {
		if d, rerr := result.ReadFile(path); rerr == nil {
			doc = d
		} else if err == nil {
			return nil, fmt.Errorf("the step's result document: %w", rerr)
		}
	}
	if doc != nil && len(doc.Empty) > 0 {
		last.flush() // it measured what it could: the study says no more
	}
	return doc, r.outcome(err, last.String())
}

// outcome maps a step's exit to what study run makes of it.
func (r stepRunner) outcome(err error, why string) error {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return err
	}
	why = strings.TrimPrefix(why, "dbmeter: ")
	if exit.ExitCode() == exitCannotRun {
		return &study.Unavailable{Reason: why}
	}
	if why == "" {
		return fmt.Errorf("%s", exit)
	}
	return fmt.Errorf("%s: %s", exit, why)
}

// forwarded is the signal that cancelled ctx (signalCause), else SIGINT.
func forwarded(ctx context.Context) os.Signal {
	var sig signalCause
	if errors.As(context.Cause(ctx), &sig) {
		return sig.sig
	}
	return syscall.SIGINT
}

// lastLine passes a child's stderr on and keeps its last line: the one-line
// error a dbmeter run ends with.
type lastLine struct {
	w    io.Writer
	mu   sync.Mutex
	buf  []byte
	held []byte // a "dbmeter: " line not yet passed on
	last string
}

// Write passes p on, line by line, keeping the last.
//
// A line that may be the step's last error ("dbmeter: …") is held until
// another line follows it: when it is the last, study run's own line about
// the step says it ("skipped: cannot run here: …", "failed: …"), and
// passing it on too printed every refusal twice. flush passes on what is
// held, for a step whose end says nothing of it.
func (l *lastLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	var out []byte
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		line := l.buf[:i+1]
		if t := strings.TrimSpace(string(line)); t != "" {
			l.last = t
		}
		out = append(out, l.held...)
		l.held = nil
		if bytes.HasPrefix(line, []byte("dbmeter: ")) {
			l.held = append([]byte{}, line...)
		} else {
			out = append(out, line...)
		}
		l.buf = l.buf[i+1:]
	}
	if _, err := l.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// flush passes on the line held back and any unfinished one.
func (l *lastLine) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(append(l.held, l.buf...))
	l.held, l.buf = nil, nil
}

func (l *lastLine) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if rest := strings.TrimSpace(string(l.buf)); rest != "" {
		return rest
	}
	return l.last
}
