package engine

import (
	"context"
	"errors"
)

// ErrNotFound is what Get returns for a key that is not in the store.
var ErrNotFound = errors.New("key not found")

// Store is what every embedded engine provides. Its methods are safe for
// concurrent use. Keys and values passed in may be reused by the caller as
// soon as a call returns, so a store that keeps them copies them.
type Store interface {
	// Get appends the value of key to dst[:0] and returns it, or
	// ErrNotFound. Reusing dst keeps the hot path free of allocations where
	// the engine allows it.
	Get(key, dst []byte) ([]byte, error)
	Set(key, value []byte) error
	Delete(key []byte) error
	Close() error
}

// Batcher is a Store that can commit many writes at once through the
// engine's own batch or transaction API. With Options.Sync the batch is
// made durable as a whole (one sync).
type Batcher interface {
	SetBatch(keys, values [][]byte) error
}

// Options configure an engine.
type Options struct {
	// Dir holds the engine's files; it exists and is empty on first open.
	// Memory engines ignore it.
	Dir string
	// Sync makes every acknowledged write durable (each engine's own switch:
	// see Engine.Sync).
	Sync bool
	// Params are engine knobs by name without the engine prefix
	// ("value_threshold": "1024"). Unknown keys are an error.
	Params map[string]string
}

// Opener opens an engine's store.
type Opener func(ctx context.Context, o Options) (Store, error)

// SetBatch writes keys[i] = values[i] through s's batch API when it has one,
// and one Set at a time otherwise.
func SetBatch(s Store, keys, values [][]byte) error {
	if b, ok := s.(Batcher); ok {
		return b.SetBatch(keys, values)
	}
	for i := range keys {
		if err := s.Set(keys[i], values[i]); err != nil {
			return err
		}
	}
	return nil
}
