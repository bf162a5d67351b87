package engine

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/syndtr/goleveldb/leveldb/util"
)

// Settler is a Store with background work of its own (an LSM tree's
// memtable flushes and compactions). Settle writes what it buffers in
// memory to its tables, compacts the whole key range and returns when no
// background work is left, so that every cell of a matrix starts from the
// same layout on disk, whatever the engine would have been doing next.
type Settler interface {
	Settle(ctx context.Context) error
}

var (
	_ Settler = (*pebbleStore)(nil)
	_ Settler = (*goleveldbStore)(nil)
)

// keysEnd sorts after every key dbmeter writes (decimal digits).
var keysEnd = []byte{0xff}

func (s *pebbleStore) Settle(ctx context.Context) error {
	if err := s.db.Flush(); err != nil {
		return fmt.Errorf("flush: %w", err)
	}
	if err := s.db.Compact(ctx, nil, keysEnd, true); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	// A compaction the flush triggered may still run.
	return waitIdle(ctx, func() bool {
		m := s.db.Metrics()
		return m.Compact.NumInProgress == 0 && m.Flush.NumInProgress == 0
	})
}

// Settle compacts the memtable and every level: goleveldb does both, and
// waits for them, in CompactRange.
func (s *goleveldbStore) Settle(context.Context) error {
	if err := s.db.CompactRange(util.Range{}); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	return nil
}

// waitIdle polls idle until it holds or ctx ends.
func waitIdle(ctx context.Context, idle func() bool) error {
	for !idle() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	return nil
}

// Level0Tables is how many tables an LSM engine's store has in level 0,
// where a flush puts them and where a get looks through every one: none
// once the store is settled. ok is false for an engine without levels.
func Level0Tables(s Store) (n int, ok bool, err error) {
	switch s := s.(type) {
	case *pebbleStore:
		return int(s.db.Metrics().Levels[0].TablesCount), true, nil
	case *goleveldbStore:
		v, err := s.db.GetProperty("leveldb.num-files-at-level0")
		if err != nil {
			return 0, true, err
		}
		n, err := strconv.Atoi(v)
		return n, true, err
	}
	return 0, false, nil
}
