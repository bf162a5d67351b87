package engine

import (
	"errors"
	"fmt"
)

// Scanner is a Store that reads keys in order: every engine with ordered
// iteration has it (YCSB's workload E scans). Find it with a type
// assertion; a hash map has none.
type Scanner interface {
	// Scan calls visit with up to limit keys, the first at or after start,
	// in ascending byte order, each with its value, and returns how many it
	// visited. key and value are valid only during the call.
	Scan(start []byte, limit int, visit func(key, value []byte)) (int, error)
}

// ErrNoOrder is what ErrNoScan wraps.
var ErrNoOrder = errors.New("it has no ordered iteration")

// ErrNoScan says what a store without ordered iteration cannot do.
func ErrNoScan(engine string) error {
	return fmt.Errorf("%s cannot scan: %w", engine, ErrNoOrder)
}

// cursor is what bolt's and bbolt's cursors have in common.
type cursor interface {
	Seek(seek []byte) (key, value []byte)
	Next() (key, value []byte)
}

// scanCursor is Scan over a bolt or bbolt cursor.
func scanCursor(c cursor, start []byte, limit int, visit func(key, value []byte)) int {
	n := 0
	for k, v := c.Seek(start); k != nil && n < limit; k, v = c.Next() {
		visit(k, v)
		n++
	}
	return n
}
