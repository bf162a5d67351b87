// Package chtest takes the private dev-services ClickHouse server away and
// brings it back, for tests of how every client path lives through an
// outage.
package chtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Ways to take the server away.
const (
	Stop = "stop" // scripts/dev-services.sh stop ch: SIGTERM, a clean shutdown
	Kill = "kill" // SIGKILL of the server process: connections die mid-stream
)

// Gate skips t unless fault tests are asked for (DBMETER_FAULT=1) on a
// server of the test's own (DBMETER_SERVICES_STATE names a private state
// file, so stopping it disturbs nobody else's tests). It returns the path
// of dev-services.sh.
func Gate(t *testing.T) string {
	t.Helper()
	if os.Getenv("DBMETER_FAULT") != "1" {
		t.Skip("DBMETER_FAULT=1 not set: fault tests stop the ClickHouse server of DBMETER_SERVICES_STATE")
	}
	state := os.Getenv("DBMETER_SERVICES_STATE")
	// dev-services' own default is one state file per checkout,
	// /tmp/dbmeter-services.<hash>.state: shared by whoever works there.
	if state == "" || filepath.Dir(state) == "/tmp" && strings.HasPrefix(filepath.Base(state), "dbmeter-services.") {
		t.Fatal("DBMETER_FAULT=1 needs DBMETER_SERVICES_STATE naming a private dev-services state file")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		script := filepath.Join(dir, "scripts", "dev-services.sh")
		if _, err := os.Stat(script); err == nil {
			return script
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("scripts/dev-services.sh not found above the test's directory")
		}
		dir = parent
	}
}

// Around starts an outage (down long, as Outage) once the run that w
// watches has completed operations and lead has passed since, and returns
// a context cancelled as soon as operations have come back (an interval of
// w begun after the restart had some), or tail after the restart at the
// latest, and a function that waits for the restart and returns its time.
// A run given the context and a long duration thus ends once it has shown
// what the assertions ask (errors in the gap, operations after it),
// however long the server took to stop or to start: a clean stop waits for
// the clients' connections to close, which busy keep-alive connections put
// off for up to dev-services' 30 s.
func Around(t *testing.T, w *Ticks, script, how string, lead, down, tail time.Duration) (context.Context, func() time.Time) {
	return AroundFunc(t, w, lead, tail, func() (time.Time, error) { return Outage(script, how, down) })
}

// startWait bounds the wait for a run's first operations: its workers
// set up (an external client's process started and connected) and one
// operation done.
const startWait = time.Minute

// AroundFunc is Around with the outage given as a function that takes a
// server away, brings it back and returns when it answers again.
func AroundFunc(t *testing.T, w *Ticks, lead, tail time.Duration, outage func() (time.Time, error)) (context.Context, func() time.Time) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	back := make(chan time.Time, 1)
	go func() {
		defer cancel()
		if !w.await(ctx, startWait, w.started) {
			t.Errorf("no operation completed in the run's first %s: no outage started", startWait)
			back <- time.Now()
			return
		}
		time.Sleep(lead)
		at, err := outage()
		if err != nil {
			t.Error(err)
			at = time.Now()
		}
		back <- at
		w.await(ctx, tail, func() bool { return w.resumed(at) })
	}()
	var at time.Time
	var once sync.Once
	return ctx, func() time.Time {
		once.Do(func() { at = <-back })
		return at
	}
}

// Outage takes the server away the given way, keeps it down for down, and
// starts it again; it returns when the server answers, with that time.
func Outage(script, how string, down time.Duration) (time.Time, error) {
	switch how {
	case Stop:
		if out, err := exec.Command(script, "stop", "ch").CombinedOutput(); err != nil {
			return time.Time{}, fmt.Errorf("dev-services stop ch: %v: %s", err, out)
		}
	case Kill:
		if err := kill(); err != nil {
			return time.Time{}, err
		}
	default:
		return time.Time{}, fmt.Errorf("outage %q: want stop or kill", how)
	}
	// A clean stop waits for running queries; the server is down from
	// when it has gone.
	time.Sleep(down)
	if out, err := exec.Command(script, "start", "ch").CombinedOutput(); err != nil {
		return time.Time{}, fmt.Errorf("dev-services start ch: %v: %s", err, out)
	}
	return time.Now(), nil
}

// kill sends SIGKILL to the private server, found as dev-services finds
// it: the launcher's pid, checked against the server's config file.
func kill() error {
	dir := os.Getenv("DBMETER_SERVICES_DIR")
	if dir == "" {
		return fmt.Errorf("DBMETER_SERVICES_DIR is not set: eval \"$(scripts/dev-services.sh env)\"")
	}
	b, err := os.ReadFile(filepath.Join(dir, "ch", "launcher.pid"))
	if err != nil {
		return fmt.Errorf("find the ClickHouse server: %w", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("launcher.pid: %w", err)
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !bytes.Contains(cmdline, []byte("--config-file="+filepath.Join(dir, "ch", "config.xml"))) {
		return fmt.Errorf("pid %d is not this test's ClickHouse server", pid)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill ClickHouse (pid %d): %w", pid, err)
	}
	for range 100 {
		if syscall.Kill(pid, 0) != nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("ClickHouse (pid %d) still alive after SIGKILL", pid)
}

// Ticks records a run's intervals with the wall time each ended at.
type Ticks struct {
	mu  sync.Mutex
	at  []time.Time
	ivs []result.Interval
}

var _ load.Watcher = (*Ticks)(nil)

// Tick implements load.Watcher.
func (w *Ticks) Tick(t load.Tick) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.at = append(w.at, time.Now())
	w.ivs = append(w.ivs, t.Interval)
}

// started says whether an interval has had operations.
func (w *Ticks) started() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, iv := range w.ivs {
		if iv.Ops > 0 {
			return true
		}
	}
	return false
}

// resumed says whether an interval that began after t (the one before
// it ended after t) had operations.
func (w *Ticks) resumed(t time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := 1; i < len(w.at); i++ {
		if !w.at[i-1].Before(t) && w.ivs[i].Ops > 0 {
			return true
		}
	}
	return false
}

// await polls done until it holds, the context ends or limit passes; it
// says whether done held.
func (w *Ticks) await(ctx context.Context, limit time.Duration, done func() bool) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if done() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return done()
}

// OpsAfter sums the operations of the intervals that began after t.
func (w *Ticks) OpsAfter(t time.Time, interval time.Duration) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	var n int64
	for i, end := range w.at {
		if end.Add(-interval).After(t) {
			n += w.ivs[i].Ops
		}
	}
	return n
}

// Recovered checks what every outage test asks of a path: connection
// errors during the gap and none of kind other (first says what the first
// such error was), and operations after the server came back (after).
func Recovered(t *testing.T, kinds map[string]int64, after int64, first any) {
	t.Helper()
	if kinds[load.KindConnection] == 0 || kinds[load.KindOther] > 0 {
		t.Errorf("errors by kind %v: want connection errors during the gap and none of kind other (first other: %v)", kinds, first)
	}
	if after == 0 {
		t.Error("no operation after the server came back")
	}
}
