package engine

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/boltdb/bolt"
)

var boltKnobs = []Knob{
	{Key: "initial_mmap_size", Default: "0", Doc: "initial mmap size (bytes)"},
}

// boltStore is the original boltdb/bolt, frozen since 2018: the seed's
// "bolt" column, kept beside its maintained fork bbolt.
type boltStore struct{ db *bolt.DB }

var (
	_ Store   = (*boltStore)(nil)
	_ Batcher = (*boltStore)(nil)
	_ Scanner = (*boltStore)(nil)
)

func openBolt(_ context.Context, o Options) (Store, error) {
	p, err := newKnobValues("bolt", boltKnobs, o.Params)
	if err != nil {
		return nil, err
	}
	opts := &bolt.Options{InitialMmapSize: p.int("initial_mmap_size")}
	if p.err != nil {
		return nil, p.err
	}
	path := filepath.Join(o.Dir, "bolt.db")
	db, err := bolt.Open(path, 0o600, opts)
	if err != nil {
		return nil, fmt.Errorf("open bolt %s: %w", path, err)
	}
	db.NoSync = !o.Sync
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(boltBucket)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("create bolt bucket: %w", err)
	}
	return &boltStore{db: db}, nil
}

func (s *boltStore) Get(key, dst []byte) ([]byte, error) {
	dst = dst[:0]
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(boltBucket).Get(key)
		if v == nil {
			return ErrNotFound
		}
		dst = append(dst, v...)
		return nil
	})
	return dst, err
}

func (s *boltStore) Set(key, value []byte) error {
	return s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(boltBucket).Put(key, value) })
}

func (s *boltStore) Delete(key []byte) error {
	return s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(boltBucket).Delete(key) })
}

func (s *boltStore) SetBatch(keys, values [][]byte) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(boltBucket)
		for i := range keys {
			if err := b.Put(keys[i], values[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *boltStore) Close() error { return s.db.Close() }

func (s *boltStore) Scan(start []byte, limit int, visit func(key, value []byte)) (n int, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		n = scanCursor(tx.Bucket(boltBucket).Cursor(), start, limit, visit)
		return nil
	})
	return n, err
}
