package workload

import (
	"fmt"
	"math"
)

// maxKeySize bounds --key-size: keys hold their index in decimal.
const maxKeySize = 4096

// putKey writes key index i into key as zero-padded decimal filling all of
// it, so keys sort in index order and read well in a dump. It does not
// allocate.
func putKey(key []byte, i uint64) {
	for j := len(key) - 1; j >= 0; j-- {
		key[j] = byte('0' + i%10)
		i /= 10
	}
}

// keyCapacity is how many distinct keys size decimal digits can hold.
func keyCapacity(size int) uint64 {
	if size >= 19 {
		return math.MaxUint64
	}
	n := uint64(1)
	for range size {
		n *= 10
	}
	return n
}

// errKeysExhausted says a writer ran out of distinct keys.
func errKeysExhausted(size int) error {
	return fmt.Errorf("all %d distinct %d-byte keys are used: make the keys longer", keyCapacity(size), size)
}
