package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/dbmeter/dbmeter/internal/study"
)

// stepRunner runs each step of a study as a process of its own
// (study.Exec): this binary (os.Executable), its result document asked for
// with --json and --quiet, exitCannotRun for a step that cannot run here,
// and the signal that stopped the study passed on.
type stepRunner struct {
	study.Exec
	// share is a directory of the study's own, removed by close: its
	// steps under the provisioned storage profile scale by one probe of
	// the device kept there (storageProbeShareEnv).
	share string
}

func newStepRunner(env Env) (stepRunner, error) {
	exe, err := os.Executable()
	if err != nil {
		return stepRunner{}, fmt.Errorf("find dbmeter's own binary to run the study's steps: %w", err)
	}
	share, err := os.MkdirTemp("", "dbmeter-study-")
	if err != nil {
		return stepRunner{}, fmt.Errorf("a directory for the study's steps: %w", err)
	}
	return stepRunner{share: share, Exec: study.Exec{
		Binary:     exe,
		Stderr:     env.Stderr,
		Env:        append(os.Environ(), storageProbeShareEnv+"="+filepath.Join(share, "storage-probe.json")),
		ResultArgs: func(path string) []string { return []string{"--json", path, "--quiet"} },
		CannotRun:  exitCannotRun,
		Signal:     forwarded,
	}}, nil
}

// close removes what the study's steps shared.
func (r stepRunner) close() error { return os.RemoveAll(r.share) }

// forwarded is the signal that cancelled ctx (signalCause), else SIGINT.
func forwarded(ctx context.Context) os.Signal {
	var sig signalCause
	if errors.As(context.Cause(ctx), &sig) {
		return sig.sig
	}
	return syscall.SIGINT
}
