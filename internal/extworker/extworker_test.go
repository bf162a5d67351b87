package extworker

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/result"
)

// A worker that cannot start is refused with one line that says what it
// did, its secrets masked, and no process is left behind.
func TestStartRefusesBrokenWorkers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode string
		want []string
	}{
		{"garbage-hello", []string{"does not speak dbmeter's worker protocol", `"Welcome to my worker!"`}},
		{"version", []string{"speaks worker protocol version 2, this dbmeter speaks 1"}},
		{"exit-at-start", []string{"failed before its hello", "exit status 3", "fatal: cannot load client with password xxxxx"}},
		{"cannot-run", []string{"cannot run: library missing: install it"}},
		{"hang-at-start", []string{"did not answer within 2s: killed as hung"}},
		{"setup-fails", []string{"setup failed", "connect to server: refused (password xxxxx)"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			w, err := Start(context.Background(), spec(t, tc.mode), nil)
			if err == nil {
				w.Kill()
				t.Fatal("Start succeeded")
			}
			msg := oneLine(t, err)
			for _, s := range tc.want {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q does not say %q", msg, s)
				}
			}
		})
	}
}

func TestStartNoCommand(t *testing.T) {
	t.Parallel()
	_, err := Start(context.Background(), Spec{Name: "x", Argv: []string{"/nonexistent/worker"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/worker") {
		t.Fatalf("Start of a missing program: %v", err)
	}
}

// A healthy worker's replies come back whole, and a failed operation's
// kind is the one load counts it under.
func TestReplyKinds(t *testing.T) {
	t.Parallel()
	w, err := Start(context.Background(), spec(t, "ok"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if h := w.Hello(); h.Language != "go" || h.Protocol != Version {
		t.Errorf("hello = %+v", h)
	}
	r, err := w.Call(context.Background(), []byte(`{"op":"work"}`))
	if err != nil || !r.OK || r.Rows != 10 || r.Bytes != 80 || r.Ns != 1500 || r.Phase("send") != 1000 {
		t.Fatalf("reply = %+v, %v", r, err)
	}
	for kind, want := range map[string]string{
		"connection": load.KindConnection, "server": load.KindServer, "timeout": load.KindTimeout,
		"other": load.KindOther, "bogus": load.KindOther,
	} {
		r, err := w.Call(context.Background(), []byte(`{"op":"work","kind":"`+kind+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := load.Classify(r.Err("w", nil)); got != want {
			t.Errorf("reply kind %q classified %q, want %q", kind, got, want)
		}
	}
	if w.Broken() {
		t.Error("a worker that reported failures is broken; it should be kept")
	}
}

// A worker that dies, hangs or breaks the protocol mid-run costs one
// failed operation of the right kind with its last words, and the pool
// starts another after a back-off: the operations after it succeed.
func TestPoolReplacesBrokenWorkers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode, kind string
		want       []string
	}{
		{"exit-mid", load.KindConnection, []string{"exited (exit status 255)", "PHP Fatal error: out of memory (password xxxxx)"}},
		{"hang-mid", load.KindConnection, []string{"did not answer within 500ms: killed as hung"}},
		{"garbage-reply", load.KindOther, []string{"broke the protocol", `"<html>oops</html>"`}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			p := NewPool(spec(t, tc.mode))
			defer p.Close()
			ctx := context.Background()
			op := func() error {
				w, err := p.Get(ctx)
				if err != nil {
					return err
				}
				r, err := w.Call(ctx, []byte(`{"op":"work"}`))
				if err == nil {
					err = r.Err("w", nil)
				}
				p.Put(w, err == nil, err)
				return err
			}
			if err := op(); err != nil {
				t.Fatalf("first operation: %v", err)
			}
			err := op()
			if err == nil {
				t.Fatal("the broken operation succeeded")
			}
			if got := load.Classify(err); got != tc.kind {
				t.Errorf("kind = %s, want %s (%v)", got, tc.kind, err)
			}
			msg := oneLine(t, err)
			for _, s := range tc.want {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q does not say %q", msg, s)
				}
			}
			// At once, the restart backs off rather than starting a process
			// per operation.
			if err := op(); err == nil || !strings.Contains(err.Error(), "backing off") || load.Classify(err) != load.KindConnection {
				t.Errorf("operation right after the failure: %v, want a connection error backing off", err)
			}
			time.Sleep(2 * restartMin)
			if err := op(); err != nil {
				t.Fatalf("operation after the back-off: %v", err)
			}
			if started, failures := p.Stats(); started != 2 || failures != 1 {
				t.Errorf("started %d, failures %d; want 2 and 1", started, failures)
			}
		})
	}
}

// An operation cut off by its context (the run's end, an interrupt) is the
// context's error, the worker is killed and no failure is counted.
func TestCallCancelled(t *testing.T) {
	t.Parallel()
	p := NewPool(spec(t, "hang-mid"))
	defer p.Close()
	w, err := p.Get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Call(context.Background(), []byte(`{"op":"work"}`)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = w.Call(ctx, []byte(`{"op":"work"}`))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's", err)
	}
	if d := time.Since(start); d > 400*time.Millisecond {
		t.Errorf("the cancelled call returned after %s, not at the context's end", d)
	}
	p.Put(w, false, err)
	if _, failures := p.Stats(); failures != 0 {
		t.Errorf("a cancelled operation counted as a worker failure")
	}
}

// A burst of operations while all workers are busy starts one worker at a
// time, not one per operation.
func TestPoolStartsOneAtATime(t *testing.T) {
	t.Parallel()
	p := NewPool(spec(t, "ok"))
	defer p.Close()
	ctx := context.Background()
	first, err := p.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *Proc, 8)
	for range 8 {
		go func() {
			w, err := p.Get(ctx)
			if err != nil {
				t.Error(err)
			}
			got <- w
			p.Put(w, true, nil)
		}()
	}
	for range 8 {
		<-got
	}
	p.Put(first, true, nil)
	if started, _ := p.Stats(); started > 3 {
		t.Errorf("8 waiting operations started %d workers", started)
	}
}

// Prestart measures the round trip over the workers it started, and Fill
// records it with the worker's self-description and its stderr, masked.
func TestPrestartAndFill(t *testing.T) {
	t.Parallel()
	s := spec(t, "ok")
	p := NewPool(s)
	defer p.Close()
	if err := p.Prestart(context.Background(), 2, 50); err != nil {
		t.Fatal(err)
	}
	rtt := p.RTT()
	if rtt.N != 100 || rtt.P50 <= 0 || rtt.P99 < rtt.P50 {
		t.Fatalf("rtt = %+v", rtt)
	}
	if started, _ := p.Stats(); started != 2 {
		t.Errorf("started %d workers, want 2", started)
	}
	var run result.Run
	Fill(&run, p)
	x := run.External
	if x == nil || x.Language != "go" || x.Runtime != "test" || x.Library != "none" || x.RTT.P50 != rtt.P50.Nanoseconds() || !strings.Contains(x.Command, s.Argv[0]) {
		t.Errorf("external_client = %+v", x)
	}
}

func TestStderrMasksAndKeeps(t *testing.T) {
	t.Parallel()
	p := NewPool(spec(t, "exit-mid"))
	defer p.Close()
	ctx := context.Background()
	w, err := p.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		w.Call(ctx, []byte(`{"op":"work"}`))
	}
	p.Put(w, false, nil)
	var run result.Run
	Fill(&run, p)
	if len(run.Warnings) != 1 || !strings.Contains(run.Warnings[0], "1 lines to stderr") || strings.Contains(run.Warnings[0], secret) || !strings.Contains(run.Warnings[0], redact.Mask) {
		t.Errorf("warnings = %q", run.Warnings)
	}
}
