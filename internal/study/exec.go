package study

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Exec is the Runner study run uses: each step a process of its own, the
// dbmeter binary (Binary) with the step's command line and ResultArgs, its
// result document written to a temporary file and read once. A step so
// has its own heap, its own peak resident set (kv's peak_rss_bytes) and,
// under a storage profile, its own cgroup, the study process outside it.
// The child's exit status says how the step went: 0 ran, CannotRun cannot
// run here (its one-line reason the last line of its stderr), 128+signal
// interrupted, any other failed.
type Exec struct {
	Binary string
	// Stderr receives the steps' progress and messages.
	Stderr io.Writer
	// Env is the steps' environment; nil is this process's.
	Env []string
	// ResultArgs are the arguments that have a step write its result
	// document to path and print no tables (the CLI spells them).
	ResultArgs func(path string) []string
	// CannotRun is the exit status of a step that cannot run here.
	CannotRun int
	// Signal is the signal passed on to the step when ctx ends (the one
	// that ended it); nil is SIGINT.
	Signal func(ctx context.Context) os.Signal
}

func (e Exec) Step(ctx context.Context, args []string, wantResult bool) (*result.Document, error) {
	var path string
	if wantResult {
		f, err := os.CreateTemp("", "dbmeter-step-*.json")
		if err != nil {
			return nil, fmt.Errorf("a file for the step's result: %w", err)
		}
		path = f.Name()
		f.Close()
		defer os.Remove(path)
		args = append(append([]string{}, args...), e.ResultArgs(path)...)
	}
	last := &lastLine{w: e.Stderr}
	cmd := exec.Command(e.Binary, args...)
	cmd.Env = e.Env
	cmd.Stdout, cmd.Stderr = nil, last // stdout: the tables, which ResultArgs leave out
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", e.Binary, err)
	}
	// The child has a process group of its own (a terminal's ^C reaches
	// the study alone): the study passes the signal on, once, so the step
	// stops and writes what it measured as a run of dbmeter would.
	stop := context.AfterFunc(ctx, func() { cmd.Process.Signal(e.signal(ctx)) })
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
	return doc, e.outcome(err, last.String())
}

// outcome maps a step's exit to what study run makes of it.
func (e Exec) outcome(err error, why string) error {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return err
	}
	why = strings.TrimPrefix(why, "dbmeter: ")
	if exit.ExitCode() == e.CannotRun {
		return &Unavailable{Reason: why}
	}
	if why == "" {
		return fmt.Errorf("%s", exit)
	}
	return fmt.Errorf("%s: %s", exit, why)
}

// signal is the signal a step is sent when ctx ends.
func (e Exec) signal(ctx context.Context) os.Signal {
	if e.Signal != nil {
		return e.Signal(ctx)
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
