//go:build unix

package extworker

import (
	"os/exec"
	"syscall"
)

// ownGroup puts a worker in a process group of its own, so that killing it
// also kills what it started (a worker run through sh -c, a pipeline):
// a hung worker leaves nothing behind.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
