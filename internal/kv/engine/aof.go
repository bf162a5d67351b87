package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// aof is the append-only file behind the map and btree engines, as in the
// seed: every write appends a record with one write(2), followed by an
// fsync when Sync is set. Opening replays the file; a torn record at the end
// (a crash mid-write) is cut off, since it was never acknowledged.
//
// Record: op byte ('S' set, 'D' delete), key length and value length as
// uvarints, key, value.
type aof struct {
	f    *os.File
	sync bool
	buf  []byte // guarded by the store's write lock
}

const (
	aofSet = 'S'
	aofDel = 'D'
)

// openAOF opens or creates path and calls apply for each record in it.
func openAOF(path string, sync bool, apply func(op byte, key, val []byte)) (*aof, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read append-only file: %w", err)
	}
	good := replayAOF(data, apply)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open append-only file: %w", err)
	}
	if good < len(data) {
		if err := f.Truncate(int64(good)); err != nil {
			f.Close()
			return nil, fmt.Errorf("cut torn record off %s: %w", path, err)
		}
	}
	if _, err := f.Seek(int64(good), 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("seek %s: %w", path, err)
	}
	return &aof{f: f, sync: sync}, nil
}

// replayAOF applies every whole record and returns the length they cover.
func replayAOF(data []byte, apply func(op byte, key, val []byte)) int {
	off := 0
	for off < len(data) {
		op := data[off]
		p := off + 1
		klen, n := binary.Uvarint(data[p:])
		if n <= 0 {
			break
		}
		p += n
		vlen, n := binary.Uvarint(data[p:])
		if n <= 0 {
			break
		}
		p += n
		rest := uint64(len(data) - p)
		if (op != aofSet && op != aofDel) || klen > rest || vlen > rest-klen {
			break
		}
		key := data[p : p+int(klen)]
		val := data[p+int(klen) : p+int(klen)+int(vlen)]
		apply(op, key, val)
		off = p + int(klen) + int(vlen)
	}
	return off
}

// add encodes one record into the pending buffer.
func (a *aof) add(op byte, key, val []byte) {
	a.buf = append(a.buf, op)
	a.buf = binary.AppendUvarint(a.buf, uint64(len(key)))
	a.buf = binary.AppendUvarint(a.buf, uint64(len(val)))
	a.buf = append(a.buf, key...)
	a.buf = append(a.buf, val...)
}

// flush writes the pending records in one write and syncs them if asked.
func (a *aof) flush() error {
	_, err := a.f.Write(a.buf)
	a.buf = a.buf[:0]
	if err != nil {
		return fmt.Errorf("append: %w", err)
	}
	if a.sync {
		if err := a.f.Sync(); err != nil {
			return fmt.Errorf("fsync append-only file: %w", err)
		}
	}
	return nil
}

func (a *aof) close() error { return a.f.Close() }
