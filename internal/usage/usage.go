// Package usage marks the errors that are the user's mistake on the command
// line or in an input file, so that the CLI exits 2 for them and 1 for a
// run that failed. Families return them from the options they validate,
// without knowing about the CLI.
package usage

import (
	"errors"
	"fmt"
)

// Error is a mistake the user can fix by changing the command.
type Error struct{ Err error }

func (e Error) Error() string { return e.Err.Error() }
func (e Error) Unwrap() error { return e.Err }

// Errorf is a usage Error with a formatted message.
func Errorf(format string, a ...any) error { return Error{fmt.Errorf(format, a...)} }

// Wrap marks err as a usage Error; nil stays nil.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	return Error{err}
}

// Is says whether err is, or wraps, a usage Error.
func Is(err error) bool {
	var u Error
	return errors.As(err, &u)
}
