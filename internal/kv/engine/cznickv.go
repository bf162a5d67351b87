package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
	cznic "modernc.org/kv"
	"modernc.org/lldb"
)

// cznicCommitWait bounds how long a durable write waits for the commit
// that carries it. modernc.org/kv commits once per grace period, fixed at
// one second inside the library; ten of them mean the commit failed.
const cznicCommitWait = 10 * time.Second

// cznicStore is modernc.org/kv (the study's cznic/kv). The library has no
// per-write durability switch: every write joins a group commit (WAL
// fsync, then the database file) that runs once a second. With Sync a
// write is acknowledged only after the commit that carries it has synced
// the database file; its latency is that wait.
type cznicStore struct {
	db    *cznic.DB
	sync  bool
	files *commitFiler
}

var (
	_ Store   = (*cznicStore)(nil)
	_ Batcher = (*cznicStore)(nil)
)

func openCznicKV(_ context.Context, o Options) (Store, error) {
	if _, err := newKnobValues("cznic/kv", nil, o.Params); err != nil {
		return nil, err
	}
	path := filepath.Join(o.Dir, "cznic.kv")
	flag := os.O_RDWR
	_, err := os.Stat(path)
	fresh := os.IsNotExist(err)
	if fresh {
		flag |= os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open cznic/kv file: %w", err)
	}
	files := &commitFiler{Filer: lldb.NewSimpleFileFiler(f), synced: make(chan struct{})}
	opts := &cznic.Options{Locker: flockFile}
	var db *cznic.DB
	if fresh {
		db, err = cznic.CreateFromFiler(files, opts)
	} else {
		db, err = cznic.OpenFromFiler(files, opts) // replays the WAL after a crash
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open cznic/kv %s: %w", path, err)
	}
	return &cznicStore{db: db, sync: o.Sync, files: files}, nil
}

// Get returns a nil value for a missing key and a non-nil one, perhaps
// empty, for a present key.
func (s *cznicStore) Get(key, dst []byte) ([]byte, error) {
	v, err := s.db.Get(dst[:0], key)
	if err != nil {
		return dst[:0], err
	}
	if v == nil {
		return dst[:0], ErrNotFound
	}
	return v, nil
}

func (s *cznicStore) Set(key, value []byte) error {
	if !s.sync {
		return s.db.Set(key, value)
	}
	return s.write(func() (bool, error) { return true, s.db.Set(key, value) })
}

// Delete deletes through Extract when it must wait for the commit: a
// delete of a missing key changes no page, so no commit would carry it.
func (s *cznicStore) Delete(key []byte) error {
	if !s.sync {
		return s.db.Delete(key)
	}
	return s.write(func() (bool, error) {
		old, err := s.db.Extract(nil, key)
		return old != nil, err
	})
}

func (s *cznicStore) SetBatch(keys, values [][]byte) error {
	return s.write(func() (bool, error) {
		for i := range keys {
			if err := s.db.Set(keys[i], values[i]); err != nil {
				return false, err
			}
		}
		return true, nil
	})
}

// write runs op in one transaction (BeginTransaction/Commit, the
// library's batch API) and, with Sync, waits for a commit
// that started after it. No commit can start while a transaction is open
// (the library commits only when no transaction is), so the commit count
// read inside it excludes every commit that could miss op's writes.
func (s *cznicStore) write(op func() (changed bool, err error)) error {
	if err := s.db.BeginTransaction(); err != nil {
		return err
	}
	synced := s.files.next()
	changed, err := op()
	if err != nil {
		s.db.Rollback()
		return err
	}
	if err := s.db.Commit(); err != nil {
		return err
	}
	if !s.sync || !changed {
		return nil
	}
	select {
	case <-synced:
		return nil
	case <-time.After(cznicCommitWait):
		return fmt.Errorf("cznic/kv: no commit synced the write within %v", cznicCommitWait)
	}
}

func (s *cznicStore) Close() error { return s.db.Close() }

// flockFile locks name+".lock" with flock. The library's own lock is a
// file created with O_EXCL, which a killed process leaves behind, so the
// database could not be opened again after a crash; the kernel drops a
// flock with its process.
func flockFile(name string) (io.Closer, error) {
	f, err := os.OpenFile(name+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock cznic/kv: %w", err)
	}
	if err := flockPatiently(f, lockPatience); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock cznic/kv %s: %w (is another process using it?)", name, err)
	}
	return f, nil // closing the file releases the lock
}

// lockPatience is how long a busy lock is retried before it is taken to
// be another process's.
const lockPatience = 2 * time.Second

// flockPatiently retries a busy lock for a while: a flock belongs to the
// open file description, and a child this process forks shares every
// description until it execs (close-on-exec closes them only then), so a
// lock this process released a moment ago can still show as busy while
// another goroutine starts a program.
func flockPatiently(f *os.File, patience time.Duration) error {
	deadline := time.Now().Add(patience)
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EWOULDBLOCK) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// commitFiler is the database file as the library sees it. The library
// syncs it last in every commit, after the WAL, and at Close; a write
// made before that sync is durable once it returns.
type commitFiler struct {
	lldb.Filer
	mu     sync.Mutex
	synced chan struct{} // closed by the next successful Sync
}

// next returns a channel closed by the next successful Sync.
func (f *commitFiler) next() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.synced
}

func (f *commitFiler) Sync() error {
	if err := f.Filer.Sync(); err != nil {
		return err
	}
	f.mu.Lock()
	close(f.synced)
	f.synced = make(chan struct{})
	f.mu.Unlock()
	return nil
}
