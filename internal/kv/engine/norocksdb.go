//go:build !rocksdb

package engine

// Without -tags rocksdb the engine is listed but cannot be opened: it needs
// cgo and Debian's librocksdb-dev.
var (
	openRocksDB  Opener
	rocksdbKnobs []Knob
)

const rocksdbMissing = "not built in (build with -tags rocksdb)"
