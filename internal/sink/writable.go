package sink

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Writable says why path cannot be written, or nil. An existing file is
// opened for writing without truncating it; a new one is created and
// removed again. Files that are not regular (/dev/null, a pipe) are the
// user's to choose and are not opened, so that a pipe without a reader
// cannot block the check.
func Writable(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return errors.New("it is a directory")
	case err == nil && !info.Mode().IsRegular():
		return nil
	case err == nil:
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return reason(err)
		}
		return f.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return reason(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return reason(err)
	}
	f.Close()
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("remove the file made to check it: %w", reason(err))
	}
	return nil
}

// reason is the system's words for a failed file operation, without the
// operation and path the caller names already.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
