package kv

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// syncTree fsyncs every file under dir and dir itself, so that a cell
// starts with nothing of the preload left in the page cache to write back:
// with fsync off that write-back would land in the measured window.
func syncTree(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil // an obsolete table the engine removed meanwhile
		case err != nil:
			return err
		case !d.Type().IsRegular() && !d.IsDir():
			return nil
		}
		if err := syncPath(path); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
}

// syncPath fsyncs one file or directory.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	serr := f.Sync()
	if cerr := f.Close(); serr == nil {
		serr = cerr
	}
	if serr != nil {
		return fmt.Errorf("fsync %s: %w", path, serr)
	}
	return nil
}

// diskBytes is the space the files under dir take on disk (allocated
// blocks, as du counts them: a preallocated, sparse value log counts for
// what it holds, not its length), directories left out.
func diskBytes(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			var info fs.FileInfo
			if info, err = d.Info(); err == nil {
				if st, ok := info.Sys().(*syscall.Stat_t); ok {
					total += st.Blocks * 512
				} else {
					total += info.Size()
				}
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed by the engine meanwhile
		}
		return err
	})
	return total, err
}

// copyTree copies the regular files under from into to, which exists, and
// fsyncs what it wrote, so that no write-back of the copy lands in a
// cell's measured window. A file whose name shared matches is linked
// instead (a hard link: no bytes copied, nothing to sync): the engine
// never changes it, and deleting it only drops the cell's link.
func copyTree(from, to string, shared func(name string) bool) error {
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case !d.Type().IsRegular():
			return nil
		case shared != nil && shared(d.Name()) && os.Link(path, dst) == nil:
			return nil
		}
		return copyFile(path, dst)
	})
	if err != nil {
		return err
	}
	return syncDirs(to)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	// On a filesystem that shares blocks between files (xfs with reflink,
	// btrfs), the copy is a clone: no data is read or written until a cell
	// writes, so a preloaded store of millions of keys costs each cell
	// almost nothing. Elsewhere (ext4) the bytes are copied, in the kernel
	// (copy_file_range, which xfs also turns into a clone).
	if unix.IoctlFileClone(int(out.Fd()), int(in.Fd())) != nil {
		if _, err := io.Copy(out, in); err != nil {
			return errors.Join(err, out.Close())
		}
	}
	if err := out.Sync(); err != nil {
		return errors.Join(fmt.Errorf("fsync %s: %w", to, err), out.Close())
	}
	return out.Close()
}

// syncDirs fsyncs dir and every directory under it, so that the entries
// a copy made are on disk too.
func syncDirs(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		return syncPath(path)
	})
}

// emptyDir removes everything in dir, keeping dir.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
