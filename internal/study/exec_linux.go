package study

import (
	"os/exec"
	"syscall"
)

// ownGroup puts a step's process in a process group of its own, so a
// terminal's ^C reaches the study alone and the study passes it on once
// (a second signal quits at once), and has the kernel kill the step if
// the study dies first (quitting at once), so no step outlives its study.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
