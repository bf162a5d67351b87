package engine

import (
	"context"
	"fmt"
	"path/filepath"

	bbolt "go.etcd.io/bbolt"
)

var bboltKnobs = []Knob{
	{Key: "freelist_type", Default: "array", Doc: "free page list: array or map", Choices: []string{"array", "map"}},
	{Key: "no_freelist_sync", Default: "false", Doc: "do not write the freelist on commit"},
	{Key: "initial_mmap_size", Default: "0", Doc: "initial mmap size (bytes)"},
}

// boltBucket holds every key: both bolts need a bucket.
var boltBucket = []byte("dbmeter")

type bboltStore struct{ db *bbolt.DB }

var (
	_ Store   = (*bboltStore)(nil)
	_ Batcher = (*bboltStore)(nil)
	_ Scanner = (*bboltStore)(nil)
)

func openBbolt(_ context.Context, o Options) (Store, error) {
	p, err := newKnobValues("bbolt", bboltKnobs, o.Params)
	if err != nil {
		return nil, err
	}
	opts := &bbolt.Options{
		NoSync:          !o.Sync,
		FreelistType:    bbolt.FreelistType(p.oneOf("freelist_type", "array", "map")),
		NoFreelistSync:  p.bool("no_freelist_sync"),
		InitialMmapSize: p.int("initial_mmap_size"),
	}
	if p.err != nil {
		return nil, p.err
	}
	path := filepath.Join(o.Dir, "bbolt.db")
	db, err := bbolt.Open(path, 0o600, opts)
	if err != nil {
		return nil, fmt.Errorf("open bbolt %s: %w", path, err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(boltBucket)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("create bbolt bucket: %w", err)
	}
	return &bboltStore{db: db}, nil
}

func (s *bboltStore) Get(key, dst []byte) ([]byte, error) {
	dst = dst[:0]
	err := s.db.View(func(tx *bbolt.Tx) error {
		v := tx.Bucket(boltBucket).Get(key)
		if v == nil {
			return ErrNotFound
		}
		dst = append(dst, v...) // v is only valid inside the transaction
		return nil
	})
	return dst, err
}

func (s *bboltStore) Set(key, value []byte) error {
	return s.db.Update(func(tx *bbolt.Tx) error { return tx.Bucket(boltBucket).Put(key, value) })
}

func (s *bboltStore) Delete(key []byte) error {
	return s.db.Update(func(tx *bbolt.Tx) error { return tx.Bucket(boltBucket).Delete(key) })
}

func (s *bboltStore) SetBatch(keys, values [][]byte) error {
	return s.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(boltBucket)
		for i := range keys {
			if err := b.Put(keys[i], values[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *bboltStore) Close() error { return s.db.Close() }

func (s *bboltStore) Scan(start []byte, limit int, visit func(key, value []byte)) (n int, err error) {
	err = s.db.View(func(tx *bbolt.Tx) error {
		n = scanCursor(tx.Bucket(boltBucket).Cursor(), start, limit, visit)
		return nil
	})
	return n, err
}
