package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/names"
	"github.com/dbmeter/dbmeter/internal/storage"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1 // the run failed or had errors
	exitUsage  = 2 // the command line was wrong
	// exitCannotRun: this machine cannot run the command as given (a
	// storage profile without root, cgroups or a block device), though the
	// command line is right: study run skips such a step, with the one
	// line the command printed, where another failure fails the study.
	exitCannotRun = 3
)

// usagef is a mistake on the command line: exit 2. Families mark theirs
// with the same type (package usage).
var usagef = usage.Errorf

// runError is a failure after the command line was accepted: exit 1.
type runError struct{ err error }

func (e runError) Error() string { return e.err.Error() }
func (e runError) Unwrap() error { return e.err }

// exitCodeOf maps an error from a command to an exit code. Errors that never
// reached a command's RunE come from cobra's own parsing: usage.
func exitCodeOf(err error) int {
	var r runError
	var refusal *storage.Refusal
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &refusal):
		return exitCannotRun
	case usage.Is(err):
		return exitUsage
	case errors.As(err, &r):
		return exitFailed
	}
	return exitUsage
}

// suggestFlag adds the closest flag of c to pflag's "unknown flag: --x"
// ("--engine" gets "did you mean --engines?"), as cobra does for commands.
func suggestFlag(c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	var known []string
	add := func(f *pflag.Flag) {
		if !f.Hidden {
			known = append(known, f.Name)
		}
	}
	c.Flags().VisitAll(add)
	c.InheritedFlags().VisitAll(add)
	if best := names.Closest(name, known); best != "" {
		return fmt.Errorf("%w (did you mean --%s?)", err, best)
	}
	return err
}
