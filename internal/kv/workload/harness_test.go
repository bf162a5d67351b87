package workload

import (
	"bytes"
	"testing"
)

// The harness's keys: goroutine j's k-th key is j·(k+1), written as 'k'
// and 8 big-endian bytes (smallnest/kvbench's cmd/cli/main.go).
func TestHarnessKeys(t *testing.T) {
	for _, c := range []struct {
		j, k, want uint64
	}{{0, 0, 0}, {0, 9, 0}, {1, 0, 1}, {1, 11, 12}, {3, 3, 12}, {12, 0, 12}, {7, 2, 21}} {
		if got := HarnessKey(c.j, c.k); got != c.want {
			t.Errorf("HarnessKey(%d, %d) = %d, want %d", c.j, c.k, got, c.want)
		}
	}
	key := make([]byte, HarnessKeySize)
	PutHarnessKey(key, 0x0102)
	if want := []byte{'k', 0, 0, 0, 0, 0, 0, 1, 2}; !bytes.Equal(key, want) {
		t.Errorf("PutHarnessKey(0x0102) = %v, want %v", key, want)
	}
}
