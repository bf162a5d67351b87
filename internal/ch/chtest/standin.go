package chtest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/standin"
)

// StandIn starts a plain protocol stand-in for the test and returns it
// with its DSN; it is closed when the test ends.
func StandIn(t *testing.T) (*standin.Server, ch.DSN) {
	t.Helper()
	srv, err := standin.Listen("127.0.0.1:0", standin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	d, err := ch.ParseDSN("clickhouse://" + srv.Addr() + "/default")
	if err != nil {
		t.Fatal(err)
	}
	return srv, d
}

// standInEnv names, in the child process, the address to serve on.
const standInEnv = "DBMETER_STANDIN_CHILD_ADDR"

// readyLine is what the child logs once its tables exist.
const readyLine = "dbmeter-standin-ready"

// ServeStandIn is the body of the test function that a StandInProcess
// runs in a process of its own: it serves a protocol stand-in holding
// stmts' tables until it is killed. Run any other way it skips.
func ServeStandIn(t *testing.T, stmts []string) {
	addr := os.Getenv(standInEnv)
	if addr == "" {
		t.Skip("runs only as the stand-in process of an outage test (chtest.StartStandIn)")
	}
	srv, err := standin.Listen(addr, standin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if err := srv.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	t.Log(readyLine)      // -test.v streams it to the parent at once
	time.Sleep(time.Hour) // until SIGKILL
}

// StandInProcess is a protocol stand-in in a process of its own (the test
// binary run again for the test that calls ServeStandIn), so that an
// outage test can SIGKILL it mid-run, with every connection dying at
// once, and start it again on the same address, as it does a server.
type StandInProcess struct {
	test string
	addr string
	cmd  *exec.Cmd
}

// StartStandIn starts the stand-in process of test (the name of a test
// function that calls ServeStandIn) on a free loopback port.
func StartStandIn(t *testing.T, test string) *StandInProcess {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &StandInProcess{test: test, addr: ln.Addr().String()}
	ln.Close()
	t.Cleanup(func() { p.kill() })
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	return p
}

// Addr is the stand-in's address, the same across restarts.
func (p *StandInProcess) Addr() string { return p.addr }

func (p *StandInProcess) start() error {
	cmd := exec.Command(os.Args[0], "-test.run=^"+p.test+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), standInEnv+"="+p.addr)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the stand-in process: %w", err)
	}
	p.cmd = cmd
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		ok := false
		for sc.Scan() {
			if !ok && strings.Contains(sc.Text(), readyLine) {
				ok = true
				ready <- true
			}
		}
		if !ok {
			ready <- false
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			return fmt.Errorf("the stand-in process on %s ended before it served", p.addr)
		}
		return nil
	case <-time.After(30 * time.Second):
		return fmt.Errorf("the stand-in process on %s not serving after 30s", p.addr)
	}
}

// kill sends the process SIGKILL and reaps it.
func (p *StandInProcess) kill() {
	if p.cmd == nil {
		return
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
	p.cmd = nil
}

// Outage SIGKILLs the stand-in, keeps it down for down, and starts it
// again on the same address, with its tables and no rows; it returns when
// it serves, with that time.
func (p *StandInProcess) Outage(down time.Duration) (time.Time, error) {
	p.kill()
	time.Sleep(down)
	if err := p.start(); err != nil {
		return time.Time{}, err
	}
	return time.Now(), nil
}
