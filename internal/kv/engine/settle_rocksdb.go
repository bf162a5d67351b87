//go:build rocksdb

package engine

import (
	"context"

	"github.com/linxGnu/grocksdb"
)

var _ Settler = (*rocksdbStore)(nil)

// Settle flushes the memtable, waiting for it, and compacts the whole key
// range; both calls return when the work is done.
func (s *rocksdbStore) Settle(context.Context) error {
	fo := grocksdb.NewDefaultFlushOptions()
	defer fo.Destroy()
	fo.SetWait(true)
	if err := s.db.Flush(fo); err != nil {
		return err
	}
	s.db.CompactRange(grocksdb.Range{})
	return nil
}
