package sysinfo

import (
	"os/exec"
	"testing"
	"time"
)

// The CPU of a process dbmeter started counts while it runs (from /proc)
// and after it was reaped (from rusage), without a jump between the two.
func TestChildrenCPU(t *testing.T) {
	before := ChildrenCPU()
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Skip("no sh to run a busy loop")
	}
	time.Sleep(1500 * time.Millisecond)
	running := ChildrenCPU() - before
	cmd.Process.Kill()
	cmd.Wait()
	reaped := ChildrenCPU() - before
	used := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	t.Logf("running %v, reaped %v, the child's own rusage %v", running, reaped, used)
	// Even on a shared machine a busy loop gets some CPU in 1.5 s.
	if running < 20*time.Millisecond {
		t.Errorf("a running busy child counted %v of CPU", running)
	}
	if reaped < used-20*time.Millisecond || reaped > used+20*time.Millisecond {
		t.Errorf("after it was reaped %v, want its rusage %v (within /proc's 10 ms ticks)", reaped, used)
	}
	if reaped < running {
		t.Errorf("reaping lost CPU: %v while running, %v after", running, reaped)
	}
}
