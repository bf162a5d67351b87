package ycsb

// FNV-64 constants of YCSB's Utils.fnvhash64.
const (
	fnvOffsetBasis64 = -3750763034362895579 // 0xCBF29CE484222325 as a Java long
	fnvPrime64       = 1099511628211
)

// FNVHash64 is YCSB's Utils.fnvhash64: FNV-1a over the eight bytes of v,
// low byte first, then the absolute value (as Java's Math.abs, so the one
// hash equal to the smallest long stays negative). go-ycsb hashes the bytes
// high byte first, so its keys differ from YCSB's; these match YCSB's
// (record 0 is user6284781860667377211).
func FNVHash64(v int64) int64 {
	h := int64(fnvOffsetBasis64)
	for range 8 {
		h ^= v & 0xff
		v >>= 8
		h *= fnvPrime64
	}
	if h < 0 {
		h = -h
	}
	return h
}
