package kvtest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
)

// crashEnv switches a re-executed test binary into the crash child and
// names the engine; crashDirEnv names its directory.
const (
	crashEnv    = "DBMETER_KVTEST_CRASH_ENGINE"
	crashDirEnv = "DBMETER_KVTEST_CRASH_DIR"
)

// crashAcks is how many acknowledged writes the parent waits for before it
// kills the child: enough that the kill lands while writes are in flight.
// An engine that makes a write durable only with its next group commit
// (cznic/kv: once a second) acknowledges one write per commit, so the
// parent kills after crashWait whatever the count.
const (
	crashAcks = 300
	crashWait = 5 * time.Second
)

// CrashChild runs the crash test's child when the test binary was started
// as one, and reports whether it was. Call it first in TestMain:
//
//	func TestMain(m *testing.M) {
//		if kvtest.CrashChild() {
//			return
//		}
//		os.Exit(m.Run())
//	}
//
// The child opens the engine with Sync, writes keys 0, 1, … and prints
// "ack N" only after Set(N) returned, until it is killed.
func CrashChild() bool {
	name := os.Getenv(crashEnv)
	if name == "" {
		return false
	}
	if err := crashWriter(name, os.Getenv(crashDirEnv)); err != nil {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(3)
	}
	return true
}

func crashWriter(name, dir string) error {
	e, err := engine.Lookup(name)
	if err != nil {
		return err
	}
	s, err := e.Open(context.Background(), engine.Options{Dir: dir, Sync: true})
	if err != nil {
		return err
	}
	for i := 0; ; i++ {
		if err := s.Set(key(i), value(i)); err != nil {
			return fmt.Errorf("Set(%s): %w", key(i), err)
		}
		// Unbuffered: the parent must see an ack as soon as it is true.
		if _, err := fmt.Fprintf(os.Stdout, "ack %d\n", i); err != nil {
			return err
		}
	}
}

// testCrash kills a child that writes with Sync mid-way (SIGKILL: no
// deferred code, no Close) and checks that every write it acknowledged is
// there after reopening. A process kill leaves the OS page cache intact,
// so this proves that nothing acknowledged sat in the engine's own buffers
// and that recovery works; it cannot prove that the disk honours fsync.
func testCrash(t *testing.T, e engine.Engine) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+e.Name, crashDirEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start crash child: %v", err)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		for sc := bufio.NewScanner(out); sc.Scan(); {
			lines <- sc.Text()
		}
	}()
	acked := -1
	deadline := time.After(crashWait)
read:
	for acked < crashAcks-1 {
		select {
		case line, ok := <-lines:
			if !ok {
				break read
			}
			n, err := strconv.Atoi(strings.TrimPrefix(line, "ack "))
			if err != nil {
				t.Fatalf("crash child said %q", line)
			}
			acked = n
		case <-deadline:
			break read
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	go func() {
		for range lines { // let the reader finish so Wait can close the pipe
		}
	}()
	cmd.Wait()
	if acked < 0 {
		t.Fatalf("crash child acknowledged no write (see its stderr above)")
	}

	s, _ := open(t, e, dir, true)
	for i := 0; i <= acked; i++ {
		wantValue(t, s, i)
	}
	t.Logf("%s: all %d acknowledged writes survived SIGKILL", e.Name, acked+1)
}
