package cli

import (
	"errors"
	"fmt"

	"github.com/dbmeter/dbmeter/internal/redact"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1 // the run failed or had errors
	exitUsage  = 2 // the command line was wrong
)

// usageError is a mistake on the command line: exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// runError is a failure after the command line was accepted: exit 1.
type runError struct{ err error }

func (e runError) Error() string { return e.err.Error() }
func (e runError) Unwrap() error { return e.err }

// exitCodeOf maps an error from a command to an exit code. Errors that never
// reached a command's RunE come from cobra's own parsing: usage.
func exitCodeOf(err error) int {
	var u usageError
	var r runError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &u):
		return exitUsage
	case errors.As(err, &r):
		return exitFailed
	}
	return exitUsage
}

// oneLine makes err printable as the single line a user sees: secrets
// masked, newlines folded.
func oneLine(err error) string { return redact.Line(err) }

// scrubbed masks secrets a driver or server may have put in an error.
func scrubbed(err error, secrets []string) error {
	masked := redact.Err(err, secrets...)
	var u usageError
	if masked != nil && masked.Error() != err.Error() && errors.As(err, &u) {
		return usageError{masked}
	}
	return masked
}
