package study

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/dbmeter/dbmeter/internal/interrupt"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Exec is the Runner study run uses: each step a process of its own, the
// dbmeter binary (Binary) with the step's command line and ResultArgs, its
// result document written to a temporary file and read once. A step so
// has its own heap, its own peak resident set (kv's peak_rss_bytes) and,
// under a storage profile, its own cgroup, the study process outside it.
// The child's exit status says how the step went: 0 ran, CannotRun cannot
// run here (its one-line reason the last line of its stderr), 128+signal
// interrupted, any other failed; a signal that ends the study is passed on
// to the step (interrupt.Passed).
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
	// ServerFlag is how a step's command line takes a server (Flags.Server),
	// and ServerEnv the variable through which the step gets them instead:
	// each ServerFlag and the DSN after it leave the command line, and
	// ServerEnv holds the DSNs, one a line, in order. A DSN carries its
	// password, and a process's arguments are readable by every user of
	// the machine (ps, /proc/PID/cmdline); its environment only by its
	// own user. "" keeps them on the command line.
	ServerFlag, ServerEnv string
	// share is a directory of the study's own, which Close removes.
	share string
}

// NewExec is the Exec of a study run by this process's own binary
// (os.Executable), its steps in this process's environment and given a
// directory of the study's own: its steps under the provisioned storage
// profile scale by one probe of the device, kept there in the file that
// shareEnv names to them (storage.Profile.ProbeShare). Close removes it.
func NewExec(stderr io.Writer, shareEnv string) (*Exec, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find dbmeter's own binary to run the study's steps: %w", err)
	}
	share, err := os.MkdirTemp("", "dbmeter-study-")
	if err != nil {
		return nil, fmt.Errorf("a directory for the study's steps: %w", err)
	}
	env := append(os.Environ(), shareEnv+"="+filepath.Join(share, "storage-probe.json"))
	return &Exec{Binary: exe, Stderr: stderr, Env: env, share: share}, nil
}

// Close removes what the study's steps shared.
func (e *Exec) Close() error {
	if e.share == "" {
		return nil
	}
	return os.RemoveAll(e.share)
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
	args, env := e.hideServers(args)
	cmd := exec.Command(e.Binary, args...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = nil, last // stdout: the tables, which ResultArgs leave out
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", e.Binary, err)
	}
	// The child has a process group of its own (a terminal's ^C reaches
	// the study alone): the study passes the signal on, once, so the step
	// stops and writes what it measured as a run of dbmeter would.
	stop := context.AfterFunc(ctx, func() { cmd.Process.Signal(interrupt.Passed(ctx)) })
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

// hideServers moves the servers of a step's command line (ServerFlag DSN,
// or ServerFlag=DSN) into its environment as ServerEnv, which replaces any
// the study itself was given, so a step gets only its own servers.
func (e Exec) hideServers(args []string) (argv, env []string) {
	env = e.Env
	if env == nil {
		env = os.Environ()
	}
	if e.ServerEnv == "" || e.ServerFlag == "" {
		return args, env
	}
	var dsns []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--": // the words after it are arguments, not flags
			return append(argv, args[i:]...), withServers(env, e.ServerEnv, dsns)
		case a == e.ServerFlag && i+1 < len(args):
			dsns = append(dsns, args[i+1])
			i++
		case strings.HasPrefix(a, e.ServerFlag+"="):
			dsns = append(dsns, strings.TrimPrefix(a, e.ServerFlag+"="))
		default:
			argv = append(argv, a)
		}
	}
	return argv, withServers(env, e.ServerEnv, dsns)
}

// withServers is env with name holding dsns, one a line, and no other
// value of name.
func withServers(env []string, name string, dsns []string) []string {
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	if len(dsns) > 0 {
		env = append(env, name+"="+strings.Join(dsns, "\n"))
	}
	return env
}

// ServersEnv is the variable through which study run gives each step its
// servers (Exec.ServerEnv).
const ServersEnv = "DBMETER_STEP_SERVERS"

// StepServers is the step's side of hideServers: args with flag and a DSN
// for each of servers (ServersEnv's value, one a line), in order, before
// any --, so that the step runs, and records its command line, as if they
// were typed.
func StepServers(args []string, servers, flag string) []string {
	if servers == "" {
		return args
	}
	var given []string
	for _, d := range strings.Split(servers, "\n") {
		given = append(given, flag, d)
	}
	at := slices.Index(args, "--") // after it, words are arguments
	if at < 0 {
		at = len(args)
	}
	return slices.Concat(args[:at], given, args[at:])
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
