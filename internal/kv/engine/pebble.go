package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

var pebbleKnobs = []Knob{
	{Key: "memtable_size", Default: "4194304", Doc: "memtable size (bytes)"},
	{Key: "cache_size", Default: "8388608", Doc: "block cache size (bytes)"},
}

type pebbleStore struct {
	db *pebble.DB
	wo *pebble.WriteOptions
}

var (
	_ Store   = (*pebbleStore)(nil)
	_ Batcher = (*pebbleStore)(nil)
	_ Scanner = (*pebbleStore)(nil)
)

func openPebble(_ context.Context, o Options) (Store, error) {
	p, err := newKnobValues("pebble", pebbleKnobs, o.Params)
	if err != nil {
		return nil, err
	}
	opts := &pebble.Options{
		MemTableSize: uint64(p.int64("memtable_size")),
		CacheSize:    p.int64("cache_size"),
		Logger:       quietPebbleLogger{pebble.DefaultLogger},
	}
	if p.err != nil {
		return nil, p.err
	}
	db, err := pebble.Open(o.Dir, opts)
	if err != nil {
		return nil, fmt.Errorf("open pebble %s: %w", o.Dir, err)
	}
	wo := pebble.NoSync
	if o.Sync {
		wo = pebble.Sync
	}
	return &pebbleStore{db: db, wo: wo}, nil
}

func (s *pebbleStore) Get(key, dst []byte) ([]byte, error) {
	v, closer, err := s.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return dst[:0], ErrNotFound
	}
	if err != nil {
		return dst[:0], err
	}
	dst = append(dst[:0], v...) // v is only valid until closer is closed
	return dst, closer.Close()
}

func (s *pebbleStore) Set(key, value []byte) error { return s.db.Set(key, value, s.wo) }

func (s *pebbleStore) Delete(key []byte) error { return s.db.Delete(key, s.wo) }

func (s *pebbleStore) SetBatch(keys, values [][]byte) error {
	b := s.db.NewBatch()
	defer b.Close()
	for i := range keys {
		if err := b.Set(keys[i], values[i], nil); err != nil {
			return err
		}
	}
	return b.Commit(s.wo)
}

func (s *pebbleStore) Close() error { return s.db.Close() }

// quietPebbleLogger drops pebble's informational lines ("Found 0 WALs"),
// which would interleave with dbmeter's output, and keeps its errors.
type quietPebbleLogger struct{ pebble.Logger }

func (quietPebbleLogger) Infof(string, ...any) {}

func (s *pebbleStore) Scan(start []byte, limit int, visit func(key, value []byte)) (int, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: start})
	if err != nil {
		return 0, err
	}
	n := 0
	for ok := it.First(); ok && n < limit; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			return n, errors.Join(err, it.Close())
		}
		visit(it.Key(), v)
		n++
	}
	return n, it.Close() // Close returns the iteration's error
}
