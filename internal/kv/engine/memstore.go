package engine

import (
	"fmt"
	"path/filepath"
	"sync"
)

// index is an in-memory ordered or hashed key → value structure. It is not
// safe for concurrent use; memStore locks around it. Values stored are owned
// by the index.
type index interface {
	get(key []byte) ([]byte, bool)
	set(key, val []byte)
	del(key []byte)
}

// memStore is the seed's simple engine: an index under one RWMutex, with an
// optional append-only file. Writes hold the lock through the file write
// (and fsync), so readers wait for durable writes, as in the seed.
type memStore struct {
	mu  sync.RWMutex
	idx index // guarded by mu
	aof *aof  // nil for :memory:; guarded by mu
}

var (
	_ Store   = (*memStore)(nil)
	_ Batcher = (*memStore)(nil)
)

// newMemStore makes a store over idx, persisted in dir/name when dir is
// not empty.
func newMemStore(idx index, o Options, name string) (*memStore, error) {
	s := &memStore{idx: idx}
	if o.Dir == "" {
		return s, nil
	}
	path := filepath.Join(o.Dir, name)
	a, err := openAOF(path, o.Sync, func(op byte, key, val []byte) {
		if op == aofSet {
			idx.set(key, val)
		} else {
			idx.del(key)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s.aof = a
	return s, nil
}

func (s *memStore) Get(key, dst []byte) ([]byte, error) {
	s.mu.RLock()
	v, ok := s.idx.get(key)
	dst = append(dst[:0], v...)
	s.mu.RUnlock()
	if !ok {
		return dst, ErrNotFound
	}
	return dst, nil
}

func (s *memStore) Set(key, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aof != nil {
		s.aof.add(aofSet, key, value)
		if err := s.aof.flush(); err != nil {
			return err
		}
	}
	s.idx.set(key, value)
	return nil
}

func (s *memStore) Delete(key []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aof != nil {
		s.aof.add(aofDel, key, nil)
		if err := s.aof.flush(); err != nil {
			return err
		}
	}
	s.idx.del(key)
	return nil
}

// SetBatch appends the whole batch with one write and one fsync.
func (s *memStore) SetBatch(keys, values [][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aof != nil {
		for i := range keys {
			s.aof.add(aofSet, keys[i], values[i])
		}
		if err := s.aof.flush(); err != nil {
			return err
		}
	}
	for i := range keys {
		s.idx.set(keys[i], values[i])
	}
	return nil
}

func (s *memStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aof != nil {
		return s.aof.close()
	}
	return nil
}

// keep returns val in a slice the index may own, reusing old when it fits:
// overwrites in place then cost no allocation. Safe because writers hold
// the store's write lock and readers copy out under its read lock.
func keep(old, val []byte) []byte {
	if cap(old) >= len(val) {
		return append(old[:0], val...)
	}
	return append([]byte(nil), val...)
}
