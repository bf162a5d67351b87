package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tidwall/buntdb"
)

var buntdbKnobs = []Knob{
	{Key: "auto_shrink_disabled", Default: "false", Doc: "never rewrite the append-only file in the background"},
}

type buntdbStore struct{ db *buntdb.DB }

var (
	_ Store   = (*buntdbStore)(nil)
	_ Batcher = (*buntdbStore)(nil)
	_ Scanner = (*buntdbStore)(nil)
)

// openBuntDB maps Sync to SyncPolicy Always, and no Sync to Never (its
// default, EverySecond, is neither of the two modes dbmeter compares).
func openBuntDB(_ context.Context, o Options) (Store, error) {
	p, err := newKnobValues("buntdb", buntdbKnobs, o.Params)
	if err != nil {
		return nil, err
	}
	noShrink := p.bool("auto_shrink_disabled")
	if p.err != nil {
		return nil, p.err
	}
	path := filepath.Join(o.Dir, "buntdb.db")
	db, err := buntdb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open buntdb %s: %w", path, err)
	}
	var cfg buntdb.Config
	if err := db.ReadConfig(&cfg); err != nil {
		db.Close()
		return nil, fmt.Errorf("read buntdb config: %w", err)
	}
	cfg.SyncPolicy = buntdb.Never
	if o.Sync {
		cfg.SyncPolicy = buntdb.Always
	}
	cfg.AutoShrinkDisabled = noShrink
	if err := db.SetConfig(cfg); err != nil {
		db.Close()
		return nil, fmt.Errorf("configure buntdb: %w", err)
	}
	return &buntdbStore{db: db}, nil
}

func (s *buntdbStore) Get(key, dst []byte) ([]byte, error) {
	dst = dst[:0]
	err := s.db.View(func(tx *buntdb.Tx) error {
		v, err := tx.Get(string(key))
		if err != nil {
			return err
		}
		dst = append(dst, v...)
		return nil
	})
	if errors.Is(err, buntdb.ErrNotFound) {
		return dst, ErrNotFound
	}
	return dst, err
}

func (s *buntdbStore) Set(key, value []byte) error {
	return s.db.Update(func(tx *buntdb.Tx) error {
		_, _, err := tx.Set(string(key), string(value), nil)
		return err
	})
}

// Delete of a missing key is not an error, as in the other engines.
func (s *buntdbStore) Delete(key []byte) error {
	err := s.db.Update(func(tx *buntdb.Tx) error {
		_, err := tx.Delete(string(key))
		return err
	})
	if errors.Is(err, buntdb.ErrNotFound) {
		return nil
	}
	return err
}

func (s *buntdbStore) SetBatch(keys, values [][]byte) error {
	return s.db.Update(func(tx *buntdb.Tx) error {
		for i := range keys {
			if _, _, err := tx.Set(string(keys[i]), string(values[i]), nil); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *buntdbStore) Close() error { return s.db.Close() }

// Scan walks buntdb's key order (the "" index); its API hands out strings,
// so each key and value is copied into bytes.
func (s *buntdbStore) Scan(start []byte, limit int, visit func(key, value []byte)) (int, error) {
	n := 0
	if limit < 1 {
		return 0, nil
	}
	err := s.db.View(func(tx *buntdb.Tx) error {
		return tx.AscendGreaterOrEqual("", string(start), func(k, v string) bool {
			visit([]byte(k), []byte(v))
			n++
			return n < limit
		})
	})
	return n, err
}
