package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"
)

var goleveldbKnobs = []Knob{
	{Key: "write_buffer", Default: "4194304", Doc: "memtable size (bytes)"},
	{Key: "block_cache_capacity", Default: "8388608", Doc: "block cache size (bytes)"},
	{Key: "compression", Default: "snappy", Doc: "snappy or none", Choices: []string{"snappy", "none"}},
}

type goleveldbStore struct {
	db *leveldb.DB
	wo *opt.WriteOptions
}

var (
	_ Store   = (*goleveldbStore)(nil)
	_ Batcher = (*goleveldbStore)(nil)
	_ Scanner = (*goleveldbStore)(nil)
)

func openGoLevelDB(_ context.Context, o Options) (Store, error) {
	p, err := newKnobValues("goleveldb", goleveldbKnobs, o.Params)
	if err != nil {
		return nil, err
	}
	opts := &opt.Options{
		WriteBuffer:        p.int("write_buffer"),
		BlockCacheCapacity: p.int("block_cache_capacity"),
		Compression:        opt.SnappyCompression,
	}
	if p.oneOf("compression", "snappy", "none") == "none" {
		opts.Compression = opt.NoCompression
	}
	if p.err != nil {
		return nil, p.err
	}
	db, err := leveldb.OpenFile(o.Dir, opts)
	if err != nil {
		return nil, fmt.Errorf("open goleveldb %s: %w", o.Dir, err)
	}
	return &goleveldbStore{db: db, wo: &opt.WriteOptions{Sync: o.Sync}}, nil
}

// Get copies from a slice goleveldb allocates for every call: its API has
// no way to read into the caller's buffer.
func (s *goleveldbStore) Get(key, dst []byte) ([]byte, error) {
	v, err := s.db.Get(key, nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return dst[:0], ErrNotFound
	}
	return append(dst[:0], v...), err
}

func (s *goleveldbStore) Set(key, value []byte) error { return s.db.Put(key, value, s.wo) }

func (s *goleveldbStore) Delete(key []byte) error { return s.db.Delete(key, s.wo) }

func (s *goleveldbStore) SetBatch(keys, values [][]byte) error {
	var b leveldb.Batch
	for i := range keys {
		b.Put(keys[i], values[i])
	}
	return s.db.Write(&b, s.wo)
}

func (s *goleveldbStore) Close() error { return s.db.Close() }

func (s *goleveldbStore) Scan(start []byte, limit int, visit func(key, value []byte)) (int, error) {
	it := s.db.NewIterator(&util.Range{Start: start}, nil)
	defer it.Release()
	n := 0
	for ok := it.First(); ok && n < limit; ok = it.Next() {
		visit(it.Key(), it.Value())
		n++
	}
	return n, it.Error()
}
