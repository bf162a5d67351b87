package extworker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/redact"
)

// Spec says how to start the workers of one client and what to set them
// up with.
type Spec struct {
	// Name is the client's name, in every message about its workers.
	Name string
	// Argv is the command line: the program and its arguments.
	Argv []string
	// Env is added to dbmeter's own environment.
	Env []string
	// Setup is the family's parameters, sent as {"op":"setup","params":…}.
	// It may hold a password: it travels only over the worker's stdin.
	Setup any
	// Secrets are masked in everything a worker says that dbmeter keeps.
	Secrets []string
	// StartTimeout bounds start-up: the hello and the setup's reply.
	StartTimeout time.Duration
	// OpTimeout is how long a reply may take before the worker counts as
	// hung and is killed.
	OpTimeout time.Duration
}

// Default timeouts.
const (
	DefaultStartTimeout = 30 * time.Second
	DefaultOpTimeout    = 60 * time.Second
)

// Command is the command line as shown to a user.
func (s Spec) Command() string { return strings.Join(s.Argv, " ") }

func (s Spec) startTimeout() time.Duration {
	if s.StartTimeout > 0 {
		return s.StartTimeout
	}
	return DefaultStartTimeout
}

func (s Spec) opTimeout() time.Duration {
	if s.OpTimeout > 0 {
		return s.OpTimeout
	}
	return DefaultOpTimeout
}

// maxLine bounds a line a worker writes: replies are small, and a worker
// writing megabytes without a newline is broken, not slow.
const maxLine = 64 << 10

// Proc is one running worker. It is used by one goroutine at a time.
type Proc struct {
	spec   Spec
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	out    *bufio.Reader
	wbuf   []byte
	stderr *Stderr
	waited chan struct{} // closed when the process was reaped
	// stderrDone is closed when the worker's stderr reached its end, so a
	// dead worker's last words are read before they are quoted.
	stderrDone chan struct{}
	hello      Hello
	// broken is set once the process can no longer be trusted (it died,
	// hung or broke the protocol); it is then killed and never reused.
	broken bool
}

// Start starts a worker, reads its hello and sends it the setup. Any
// failure is one line saying what the worker did and, if it wrote any, its
// last stderr line; the process is gone by then.
func Start(ctx context.Context, s Spec, stderr *Stderr) (*Proc, error) {
	if len(s.Argv) == 0 {
		return nil, fmt.Errorf("%s: no worker command", s.Name)
	}
	if stderr == nil {
		stderr = NewStderr(s.Secrets)
	}
	p := &Proc{spec: s, stderr: stderr, waited: make(chan struct{}), stderrDone: make(chan struct{})}
	if err := p.start(); err != nil {
		return nil, err
	}
	if err := p.handshake(ctx); err != nil {
		p.Kill()
		return nil, err
	}
	return p, nil
}

func (p *Proc) start() error {
	s := p.spec
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Env = append(os.Environ(), s.Env...)
	ownGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("start worker %s: %w", s.Name, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return fmt.Errorf("start worker %s: %w", s.Name, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return fmt.Errorf("start worker %s: %w", s.Name, err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err = cmd.Start()
	// The child holds its own copies now.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return fmt.Errorf("start worker %s (%s): %w", s.Name, s.Command(), err)
	}
	p.cmd, p.stdin, p.stdout = cmd, inW, outR
	p.out = bufio.NewReaderSize(outR, maxLine)
	go func() {
		p.stderr.read(errR)
		close(p.stderrDone)
	}()
	go func() {
		cmd.Wait()
		close(p.waited)
	}()
	return nil
}

// handshake reads the hello, checks the version and sends the setup.
func (p *Proc) handshake(ctx context.Context) error {
	s := p.spec
	line, err := p.readLine(ctx, s.startTimeout())
	if err != nil {
		return p.startError("before its hello", err)
	}
	var h Hello
	if err := json.Unmarshal(line, &h); err != nil || h.Protocol == 0 {
		return fmt.Errorf("worker %s (%s) does not speak dbmeter's worker protocol: its first line was %s, want a hello such as {\"protocol\":%d,\"language\":…}",
			s.Name, s.Command(), quote(line, s.Secrets), Version)
	}
	if h.Error != "" {
		return fmt.Errorf("worker %s cannot run: %s", s.Name, mask(h.Error, s.Secrets))
	}
	if h.Protocol != Version {
		return fmt.Errorf("worker %s speaks worker protocol version %d, this dbmeter speaks %d: use a worker written for version %d (docs/worker-protocol.md)",
			s.Name, h.Protocol, Version, Version)
	}
	p.hello = h
	req, err := json.Marshal(setupRequest{Op: "setup", Params: s.Setup})
	if err != nil {
		return fmt.Errorf("worker %s: encode setup: %w", s.Name, err)
	}
	r, err := p.exchange(ctx, req, s.startTimeout())
	if err != nil {
		return p.startError("during setup", err)
	}
	if !r.OK {
		return load.WithKind(fmt.Errorf("worker %s: setup failed: %s", s.Name, mask(r.Error, s.Secrets)), r.kind())
	}
	return nil
}

// startError explains a worker that failed during start-up.
func (p *Proc) startError(when string, err error) error {
	var pe *protocolError
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("worker %s (%s) failed %s: %w", p.spec.Name, p.spec.Command(), when, err)
}

// Hello is what the worker said it is.
func (p *Proc) Hello() Hello { return p.hello }

// Call sends one request and reads its reply, within the Spec's OpTimeout.
// A reply reporting a failure is returned with nil error (see Reply.Err);
// an error means the worker itself failed, and it is then broken.
func (p *Proc) Call(ctx context.Context, req []byte) (*Reply, error) {
	return p.exchange(ctx, req, p.spec.opTimeout())
}

// Ping is the empty exchange: the protocol's own cost.
func (p *Proc) Ping(ctx context.Context) error {
	r, err := p.Call(ctx, pingRequest)
	if err != nil {
		return err
	}
	return r.Err(p.spec.Name, p.spec.Secrets)
}

// Reset asks the worker to drop its database connection (the next
// operation reconnects), as a Go client drops a connection that failed.
func (p *Proc) Reset(ctx context.Context) error {
	r, err := p.Call(ctx, resetRequest)
	if err != nil {
		return err
	}
	return r.Err(p.spec.Name, p.spec.Secrets)
}

// Broken reports whether the worker failed and must not be used again.
func (p *Proc) Broken() bool { return p.broken }

func (p *Proc) exchange(ctx context.Context, req []byte, limit time.Duration) (*Reply, error) {
	if p.broken {
		return nil, load.WithKind(fmt.Errorf("worker %s is gone", p.spec.Name), load.KindConnection)
	}
	p.wbuf = append(append(p.wbuf[:0], req...), '\n')
	if _, err := p.stdin.Write(p.wbuf); err != nil {
		p.broken = true
		return nil, p.died(err)
	}
	line, err := p.readLine(ctx, limit)
	if err != nil {
		return nil, err
	}
	r := new(Reply)
	if err := json.Unmarshal(line, r); err != nil {
		p.broken = true
		p.Kill()
		return nil, load.WithKind(&protocolError{fmt.Sprintf("worker %s broke the protocol: it answered %s, want a JSON reply such as {\"ok\":true}: killed",
			p.spec.Name, quote(line, p.spec.Secrets))}, load.KindOther)
	}
	return r, nil
}

// readLine reads one line within limit. A worker that does not answer in
// time is killed: it counts as hung.
func (p *Proc) readLine(ctx context.Context, limit time.Duration) ([]byte, error) {
	p.stdout.SetReadDeadline(time.Now().Add(limit))
	stop := context.AfterFunc(ctx, func() { p.stdout.SetReadDeadline(time.Unix(1, 0)) })
	line, err := p.out.ReadSlice('\n')
	stopped := stop()
	if err == nil {
		return bytes.TrimSuffix(line, []byte{'\n'}), nil
	}
	p.broken = true
	switch {
	case !stopped && ctx.Err() != nil:
		// The run is over or interrupted: the operation is unfinished.
		p.Kill()
		return nil, ctx.Err()
	case errors.Is(err, os.ErrDeadlineExceeded):
		p.Kill()
		return nil, load.WithKind(fmt.Errorf("worker %s did not answer within %s: killed as hung%s", p.spec.Name, limit, p.lastWords()), load.KindConnection)
	case errors.Is(err, bufio.ErrBufferFull):
		p.Kill()
		return nil, load.WithKind(&protocolError{fmt.Sprintf("worker %s broke the protocol: a line longer than %d bytes: killed", p.spec.Name, maxLine)}, load.KindOther)
	}
	return nil, p.died(err)
}

// died explains a worker whose pipe broke: it exited (with what status and
// last words) or closed its stdout.
func (p *Proc) died(err error) error {
	select {
	case <-p.waited:
	case <-time.After(time.Second):
		p.Kill()
		<-p.waited
	}
	status := "closed its output"
	if st := p.cmd.ProcessState; st != nil {
		status = st.String()
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	msg := fmt.Sprintf("worker %s exited (%s)", p.spec.Name, status)
	if err != nil {
		msg += ": " + err.Error()
	}
	return load.WithKind(errors.New(msg+p.lastWords()), load.KindConnection)
}

// Kill ends the worker at once. Safe to call more than once.
func (p *Proc) Kill() {
	p.broken = true
	if p.cmd != nil && p.cmd.Process != nil {
		killGroup(p.cmd)
	}
	p.stdin.Close()
	<-p.waited
	p.stdout.Close()
}

// Close ends a worker politely: its stdin is closed, which tells it to
// exit; it is killed if it has not within a second.
func (p *Proc) Close() {
	p.stdin.Close()
	select {
	case <-p.waited:
	case <-time.After(time.Second):
		killGroup(p.cmd)
		<-p.waited
	}
	p.stdout.Close()
}

// protocolError is a worker that said something dbmeter cannot read.
type protocolError struct{ msg string }

func (e *protocolError) Error() string { return e.msg }

// quote shows what a worker wrote, shortened and masked.
func quote(b []byte, secrets []string) string {
	s := string(b)
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return fmt.Sprintf("%q", mask(s, secrets))
}

func mask(s string, secrets []string) string { return redact.Scrub(s, secrets...) }

// Stderr keeps what workers write to stderr: every line counted, the first
// and the latest few kept, secrets masked. Several workers of a client may
// share one.
type Stderr struct {
	secrets []string
	mu      struct {
		sync.Mutex
		lines  int64
		first  string
		recent []string
	}
}

// keepRecent is how many of the latest lines are kept.
const keepRecent = 5

// NewStderr keeps stderr lines with secrets masked.
func NewStderr(secrets []string) *Stderr { return &Stderr{secrets: secrets} }

func (e *Stderr) read(r io.ReadCloser) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for sc.Scan() {
		line := strings.TrimSpace(mask(sc.Text(), e.secrets))
		if line == "" {
			continue
		}
		e.mu.Lock()
		e.mu.lines++
		if e.mu.first == "" {
			e.mu.first = line
		}
		e.mu.recent = append(e.mu.recent, line)
		if len(e.mu.recent) > keepRecent {
			e.mu.recent = e.mu.recent[1:]
		}
		e.mu.Unlock()
	}
}

// Lines is how many lines the workers wrote, the first of them and the
// latest few.
func (e *Stderr) Lines() (n int64, first string, recent []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mu.lines, e.mu.first, append([]string(nil), e.mu.recent...)
}

// lastWords is the latest stderr line as a suffix for an error message,
// once the worker's stderr was read to its end (a moment at most: the
// process is gone, unless a child of its own keeps the pipe open).
func (p *Proc) lastWords() string {
	select {
	case <-p.stderrDone:
	case <-time.After(100 * time.Millisecond):
	}
	_, _, recent := p.stderr.Lines()
	if len(recent) == 0 {
		return ""
	}
	return "; its last stderr line: " + shorten(recent[len(recent)-1])
}

func shorten(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// Probe starts a worker only to read its hello, and ends it: what it is,
// or why it cannot run. `dbmeter version` names the reference workers'
// libraries with it, and tests gate on it.
func Probe(ctx context.Context, s Spec) (Hello, error) {
	if len(s.Argv) == 0 {
		return Hello{}, fmt.Errorf("%s: no worker command", s.Name)
	}
	p := &Proc{spec: s, stderr: NewStderr(s.Secrets), waited: make(chan struct{}), stderrDone: make(chan struct{})}
	if err := p.start(); err != nil {
		return Hello{}, err
	}
	defer p.Close()
	line, err := p.readLine(ctx, s.startTimeout())
	if err != nil {
		return Hello{}, p.startError("before its hello", err)
	}
	var h Hello
	if err := json.Unmarshal(line, &h); err != nil || h.Protocol == 0 {
		return Hello{}, fmt.Errorf("worker %s does not speak dbmeter's worker protocol: its first line was %s", s.Name, quote(line, s.Secrets))
	}
	if h.Error != "" {
		return h, fmt.Errorf("worker %s cannot run: %s", s.Name, mask(h.Error, s.Secrets))
	}
	return h, nil
}
