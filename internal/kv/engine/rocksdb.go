//go:build rocksdb

package engine

// The binding links Debian's librocksdb-dev (7.8.3) with its default flags
// (-lrocksdb -lstdc++ -lzstd -llz4 -lz -lsnappy); grocksdb v1.7.14 is the
// release built against RocksDB 7.8.3.

import (
	"context"
	"fmt"

	"github.com/linxGnu/grocksdb"
)

// rocksdbMissing is empty: this build can run rocksdb.
const rocksdbMissing = ""

var rocksdbKnobs = []Knob{
	{Key: "block_cache_size", Default: "8388608", Doc: "LRU block cache (bytes); RocksDB's own default is an 8 MiB cache"},
	{Key: "write_buffer_size", Default: "67108864", Doc: "memtable size (bytes)"},
}

type rocksdbStore struct {
	db    *grocksdb.DB
	opts  *grocksdb.Options
	bbto  *grocksdb.BlockBasedTableOptions
	cache *grocksdb.Cache
	ro    *grocksdb.ReadOptions
	wo    *grocksdb.WriteOptions
}

var (
	_ Store   = (*rocksdbStore)(nil)
	_ Batcher = (*rocksdbStore)(nil)
	_ Scanner = (*rocksdbStore)(nil)
)

func openRocksDB(_ context.Context, o Options) (Store, error) {
	p, err := newKnobValues("rocksdb", rocksdbKnobs, o.Params)
	if err != nil {
		return nil, err
	}
	cacheSize := p.int64("block_cache_size")
	writeBuffer := p.int64("write_buffer_size")
	if p.err != nil {
		return nil, p.err
	}
	s := &rocksdbStore{
		opts:  grocksdb.NewDefaultOptions(),
		bbto:  grocksdb.NewDefaultBlockBasedTableOptions(),
		cache: grocksdb.NewLRUCache(uint64(cacheSize)),
		ro:    grocksdb.NewDefaultReadOptions(),
		wo:    grocksdb.NewDefaultWriteOptions(),
	}
	s.bbto.SetBlockCache(s.cache)
	s.opts.SetBlockBasedTableFactory(s.bbto)
	s.opts.SetCreateIfMissing(true)
	s.opts.SetWriteBufferSize(uint64(writeBuffer))
	s.wo.SetSync(o.Sync)
	db, err := grocksdb.OpenDb(s.opts, o.Dir)
	if err != nil {
		s.free()
		return nil, fmt.Errorf("open rocksdb %s: %w", o.Dir, err)
	}
	s.db = db
	return s, nil
}

func (s *rocksdbStore) Get(key, dst []byte) ([]byte, error) {
	v, err := s.db.GetPinned(s.ro, key)
	if err != nil {
		return dst[:0], err
	}
	defer v.Destroy()
	if !v.Exists() {
		return dst[:0], ErrNotFound
	}
	return append(dst[:0], v.Data()...), nil
}

func (s *rocksdbStore) Set(key, value []byte) error { return s.db.Put(s.wo, key, value) }

func (s *rocksdbStore) Delete(key []byte) error { return s.db.Delete(s.wo, key) }

func (s *rocksdbStore) SetBatch(keys, values [][]byte) error {
	b := grocksdb.NewWriteBatch()
	defer b.Destroy()
	for i := range keys {
		b.Put(keys[i], values[i])
	}
	return s.db.Write(s.wo, b)
}

func (s *rocksdbStore) Close() error {
	s.db.Close()
	s.free()
	return nil
}

// free releases the C objects; the Go collector cannot.
func (s *rocksdbStore) free() {
	s.ro.Destroy()
	s.wo.Destroy()
	s.opts.Destroy()
	s.bbto.Destroy()
	s.cache.Destroy()
}

func (s *rocksdbStore) Scan(start []byte, limit int, visit func(key, value []byte)) (int, error) {
	it := s.db.NewIterator(s.ro)
	defer it.Close()
	n := 0
	for it.Seek(start); it.Valid() && n < limit; it.Next() {
		k, v := it.Key(), it.Value()
		visit(k.Data(), v.Data())
		k.Free()
		v.Free()
		n++
	}
	return n, it.Err()
}
