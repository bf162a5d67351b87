// Package usage marks the errors that are the user's mistake on the command
// line or in an input file, so that the CLI exits 2 for them and 1 for a
// run that failed. Families return them from the options they validate,
// without knowing about the CLI.
package usage

import (
	"errors"
	"fmt"
	"io"
	"strings"
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

// Families name the settings of their config as {Field} in the messages
// they return or print, never by the flag that sets them: only the CLI
// knows how the user spelled a setting. Spell replaces each {Field} of
// err's message that spelling names, and keeps what err is (a usage Error
// stays one); a token spelling does not name is left as it is.
func Spell(err error, spelling map[string]string) error {
	if err == nil {
		return nil
	}
	msg := SpellText(err.Error(), spelling)
	if msg == err.Error() {
		return err
	}
	return spelled{err: err, msg: msg}
}

// SpellText is Spell for a message that is not an error (a line a family
// prints).
func SpellText(s string, spelling map[string]string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			break
		}
		field := s[open+1 : open+end]
		b.WriteString(s[:open])
		if name, ok := spelling[field]; ok {
			b.WriteString(name)
		} else {
			b.WriteString(s[open : open+end+1])
		}
		s = s[open+end+1:]
	}
	b.WriteString(s)
	return b.String()
}

type spelled struct {
	err error
	msg string
}

func (s spelled) Error() string { return s.msg }
func (s spelled) Unwrap() error { return s.err }

// Writer spells, in the lines written through it, the {Field}s a family
// names, as Spelling says (SpellText); its Spelling may be set after it is
// handed out, before the first line (the CLI knows the command only once
// cobra has picked it).
type Writer struct {
	W        io.Writer
	Spelling map[string]string
}

func (s *Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.W, SpellText(string(p), s.Spelling)); err != nil {
		return 0, err
	}
	return len(p), nil
}
