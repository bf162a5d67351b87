package kv

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
	return newMemStore(idx, o, "btree.aof")
}

func openBTreeMemory(_ context.Context, o Options) (Store, error) {
	idx, err := newTreeIndex("btree:memory", o.Params)
	if err != nil {
		return nil, err
	}
	return newMemStore(idx, Options{}, "")
}
