package engine

import "context"

// hashIndex is the map engine's index.
type hashIndex map[string][]byte

func (m hashIndex) get(key []byte) ([]byte, bool) {
	v, ok := m[string(key)] // the compiler makes this lookup allocation-free
	return v, ok
}

func (m hashIndex) set(key, val []byte) {
	if old, ok := m[string(key)]; ok {
		m[string(key)] = keep(old, val)
		return
	}
	m[string(key)] = keep(nil, val)
}

func (m hashIndex) del(key []byte) { delete(m, string(key)) }

func openMapAOF(_ context.Context, o Options) (Store, error) {
	if _, err := newKnobValues("map", nil, o.Params); err != nil {
		return nil, err
	}
	return newMemStore(hashIndex{}, o, "map.aof")
}

func openMapMemory(_ context.Context, o Options) (Store, error) {
	if _, err := newKnobValues("map:memory", nil, o.Params); err != nil {
		return nil, err
	}
	return newMemStore(hashIndex{}, Options{}, "")
}
