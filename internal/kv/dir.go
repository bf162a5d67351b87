package kv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// markerName marks a directory dbmeter made or adopted, so a later run may
// use it again without touching anything else.
const markerName = ".dbmeter-kv"

// ErrDirInUse says --dir holds files dbmeter did not make.
var ErrDirInUse = errors.New("is not empty and was not made by dbmeter")

// PrepareDir returns the directory the engines' directories go in, and a
// function that removes what dbmeter made. With path "" it is a new
// temporary directory, removed afterwards. Otherwise path must not exist
// (it is made, and removed afterwards), be empty, or carry dbmeter's
// marker; dbmeter never removes anything it did not make.
func PrepareDir(path string) (dir string, cleanup func() error, err error) {
	if path == "" {
		dir, err := os.MkdirTemp("", "dbmeter-kv-")
		if err != nil {
			return "", nil, fmt.Errorf("make temporary directory: %w", err)
		}
		return dir, func() error { return os.RemoveAll(dir) }, nil
	}
	entries, err := os.ReadDir(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(path, 0o755); err != nil {
			return "", nil, usage.Wrap(fmt.Errorf("make {Dir} %s: %w", path, err))
		}
		if err := writeMarker(path); err != nil {
			return "", nil, err
		}
		return path, func() error { return os.RemoveAll(path) }, nil
	case errors.Is(err, syscall.ENOTDIR):
		return "", nil, usage.Errorf("{Dir} %s is not a directory: give a new, an empty or a dbmeter-made one", path)
	case err != nil: // unreadable: the user's to fix
		return "", nil, usage.Wrap(fmt.Errorf("read {Dir} %s: %w", path, err))
	}
	marked := false
	for _, e := range entries {
		if e.Name() == markerName {
			marked = true
		}
	}
	if len(entries) > 0 && !marked {
		return "", nil, usage.Wrap(fmt.Errorf("{Dir} %s %w: give an empty or new directory", path, ErrDirInUse))
	}
	if !marked {
		if err := writeMarker(path); err != nil {
			return "", nil, err
		}
	}
	// The engines' directories are removed after each run; the marker
	// stays so the directory can be used again.
	return path, func() error { return nil }, nil
}

func writeMarker(dir string) error {
	err := os.WriteFile(filepath.Join(dir, markerName), []byte("made by dbmeter kv; safe to delete\n"), 0o644)
	if err != nil {
		return fmt.Errorf("mark {Dir} %s: %w", dir, err)
	}
	return nil
}

// dirPattern is the os.MkdirTemp pattern of a directory named after
// engine: an engine's name may hold ':' (map:memory) or '/' (cznic/kv),
// which a directory name must not.
func dirPattern(engine string) string {
	return strings.NewReplacer(":", "-", "/", "-").Replace(engine) + "-"
}
