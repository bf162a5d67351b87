package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

var badgerKnobs = []Knob{
	{Key: "value_threshold", Default: "1048576", Doc: "values at least this large go to the value log (bytes)"},
	{Key: "mem_table_size", Default: "67108864", Doc: "memtable size (bytes)"},
	{Key: "block_cache_size", Default: "268435456", Doc: "block cache size (bytes)"},
	{Key: "num_compactors", Default: "4", Doc: "compaction goroutines"},
}

type badgerStore struct{ db *badger.DB }

var (
	_ Store   = (*badgerStore)(nil)
	_ Batcher = (*badgerStore)(nil)
	_ Scanner = (*badgerStore)(nil)
)

func openBadger(_ context.Context, o Options) (Store, error) {
	p, err := newKnobValues("badger", badgerKnobs, o.Params)
	if err != nil {
		return nil, err
	}
	opts := badger.DefaultOptions(o.Dir).
		WithSyncWrites(o.Sync).
		WithLogger(nil). // its INFO lines would interleave with dbmeter's output
		WithValueThreshold(p.int64("value_threshold")).
		WithMemTableSize(p.int64("mem_table_size")).
		WithBlockCacheSize(p.int64("block_cache_size")).
		WithNumCompactors(p.int("num_compactors"))
	if p.err != nil {
		return nil, p.err
	}
	db, err := badger.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("open badger %s: %w", o.Dir, err)
	}
	return &badgerStore{db: db}, nil
}

func (s *badgerStore) Get(key, dst []byte) ([]byte, error) {
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(key)
		if err != nil {
			return err
		}
		dst, err = item.ValueCopy(dst[:0])
		return err
	})
	if errors.Is(err, badger.ErrKeyNotFound) {
		return dst[:0], ErrNotFound
	}
	return dst, err
}

func (s *badgerStore) Set(key, value []byte) error {
	return s.db.Update(func(txn *badger.Txn) error { return txn.Set(key, value) })
}

func (s *badgerStore) Delete(key []byte) error {
	return s.db.Update(func(txn *badger.Txn) error { return txn.Delete(key) })
}

// SetBatch commits the batch as one transaction; badger's WriteBatch would
// split a large batch into several commits, which is not what "one batch"
// means here.
func (s *badgerStore) SetBatch(keys, values [][]byte) error {
	return s.db.Update(func(txn *badger.Txn) error {
		for i := range keys {
			if err := txn.Set(keys[i], values[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *badgerStore) Close() error { return s.db.Close() }

// Scan iterates one read transaction, prefetching at most the values it
// will visit.
func (s *badgerStore) Scan(start []byte, limit int, visit func(key, value []byte)) (int, error) {
	n := 0
	err := s.db.View(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.PrefetchSize = max(1, min(limit, opts.PrefetchSize))
		it := txn.NewIterator(opts)
		defer it.Close()
		for it.Seek(start); it.Valid() && n < limit; it.Next() {
			item := it.Item()
			err := item.Value(func(v []byte) error {
				visit(item.Key(), v)
				return nil
			})
			if err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
