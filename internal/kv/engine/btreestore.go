package engine

import (
	"bytes"
	"context"

	"github.com/google/btree"
)

var btreeKnobs = []Knob{
	{Key: "degree", Default: "32", Doc: "B-tree degree (google/btree; its docs suggest 32)"},
}

type btreeEntry struct{ key, val []byte }

func lessEntry(a, b btreeEntry) bool { return bytes.Compare(a.key, b.key) < 0 }

// treeIndex is the btree engine's index.
type treeIndex struct{ t *btree.BTreeG[btreeEntry] }

func (x treeIndex) get(key []byte) ([]byte, bool) {
	e, ok := x.t.Get(btreeEntry{key: key})
	return e.val, ok
}

func (x treeIndex) set(key, val []byte) {
	if e, ok := x.t.Get(btreeEntry{key: key}); ok {
		e.val = keep(e.val, val)
		x.t.ReplaceOrInsert(e)
		return
	}
	x.t.ReplaceOrInsert(btreeEntry{key: bytes.Clone(key), val: keep(nil, val)})
}

func (x treeIndex) del(key []byte) { x.t.Delete(btreeEntry{key: key}) }

// treeStore is a memStore over the tree: unlike the map's, its index is
// ordered, so it scans.
type treeStore struct {
	*memStore
	tree treeIndex
}

var _ Scanner = treeStore{}

func (s treeStore) Scan(start []byte, limit int, visit func(key, value []byte)) (int, error) {
	n := 0
	if limit < 1 {
		return 0, nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	s.tree.t.AscendGreaterOrEqual(btreeEntry{key: start}, func(e btreeEntry) bool {
		visit(e.key, e.val)
		n++
		return n < limit
	})
	return n, nil
}

func newTreeStore(idx treeIndex, o Options, file string) (Store, error) {
	s, err := newMemStore(idx, o, file)
	if err != nil {
		return nil, err
	}
	return treeStore{memStore: s, tree: idx}, nil
}

func newTreeIndex(name string, params map[string]string) (treeIndex, error) {
	p, err := newKnobValues(name, btreeKnobs, params)
	if err != nil {
		return treeIndex{}, err
	}
	degree := p.int("degree")
	if p.err == nil && degree < 2 {
		p.fail("degree", "at least 2")
	}
	if p.err != nil {
		return treeIndex{}, p.err
	}
	return treeIndex{t: btree.NewG(degree, lessEntry)}, nil
}

func openBTreeAOF(_ context.Context, o Options) (Store, error) {
	idx, err := newTreeIndex("btree", o.Params)
	if err != nil {
		return nil, err
	}
	return newTreeStore(idx, o, "btree.aof")
}

func openBTreeMemory(_ context.Context, o Options) (Store, error) {
	idx, err := newTreeIndex("btree:memory", o.Params)
	if err != nil {
		return nil, err
	}
	return newTreeStore(idx, Options{}, "")
}
