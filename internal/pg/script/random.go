package script

import (
	"math"
	"math/bits"
)

// Parameter bounds pgbench enforces.
const (
	minGaussianParam = 2.0
	minZipfianParam  = 1.001
	maxZipfianParam  = 1000.0
)

// uniform is pgbench's getrand: lo + a uniform offset in [0, hi-lo].
func uniform(r *PRNG, lo, hi int64) int64 {
	return lo + int64(r.Range(0, uint64(hi-lo)))
}

// exponential is pgbench's getExponentialRand.
func exponential(r *PRNG, lo, hi int64, param float64) int64 {
	cut := math.Exp(-param)
	u := 1.0 - r.Float64() // in (0, 1]
	x := -math.Log(cut+(1.0-cut)*u) / param
	return lo + int64(float64(hi-lo+1)*x)
}

// gaussian is pgbench's getGaussianRand: a normal value cut to
// [-param, param), mapped onto [lo, hi].
func gaussian(r *PRNG, lo, hi int64, param float64) int64 {
	var stdev float64
	for {
		stdev = r.Normal()
		if stdev >= -param && stdev < param {
			break
		}
	}
	x := (stdev + param) / (param * 2.0)
	return lo + int64(float64(hi-lo+1)*x)
}

// zipfian is pgbench's getZipfianRand: rejection sampling after Devroye,
// Non-Uniform Random Variate Generation, p. 550-551.
func zipfian(r *PRNG, lo, hi int64, s float64) int64 {
	n := hi - lo + 1
	return lo - 1 + iterativeZipfian(r, n, s)
}

func iterativeZipfian(r *PRNG, n int64, s float64) int64 {
	if n <= 1 {
		return 1
	}
	b := math.Pow(2.0, s-1.0)
	for {
		u := r.Float64()
		v := r.Float64()
		x := math.Floor(math.Pow(u, -1.0/(s-1.0)))
		t := math.Pow(1.0+1.0/x, s-1.0)
		if v*x*(t-1.0)/(b-1.0) <= t/b && x <= float64(n) {
			return int64(x)
		}
	}
}

// FNV-1a and MurmurHash2 (64-bit) constants.
const (
	fnvPrime      = 0x100000001b3
	fnvOffset     = 0xcbf29ce484222325
	mm2Mul        = 0xc6a4a7935bd1e995
	mm2MulTimes8  = 0x35253c9ade8f4ca8
	mm2Rot        = 47
	permuteRounds = 6
)

// hashFNV1a is pgbench's hash_fnv1a over the value's eight bytes, low
// byte first.
func hashFNV1a(v int64, seed uint64) int64 {
	h := uint64(fnvOffset) ^ seed
	for range 8 {
		h ^= uint64(v & 0xff)
		h *= fnvPrime
		v >>= 8
	}
	return int64(h)
}

// hashMurmur2 is pgbench's hash_murmur2 (and hash) of one 64-bit value.
func hashMurmur2(v int64, seed uint64) int64 {
	h := seed ^ mm2MulTimes8
	k := uint64(v)
	k *= mm2Mul
	k ^= k >> mm2Rot
	k *= mm2Mul
	h ^= k
	h *= mm2Mul
	h ^= h >> mm2Rot
	h *= mm2Mul
	h ^= h >> mm2Rot
	return int64(h)
}

// permute is pgbench's pseudorandom permutation of [0, size): rounds of
// odd multiplies, XORs and rotations on overlapping halves, plus a random
// offset, all drawn from a generator seeded with seed.
func permute(val, isize, seed int64) int64 {
	if isize < 2 {
		return 0
	}
	r := NewPRNG(uint64(seed))
	size := uint64(isize)
	v := uint64(val) % size
	masklen := uint(63 - bits.LeadingZeros64(size))
	mask := uint64(1)<<masklen - 1
	for range permuteRounds {
		m := (r.Uint64() & mask) | 1
		x := r.Uint64() & mask
		if v <= mask {
			v = ((v * m) ^ x) & mask
			v = ((v << 1) & mask) | (v >> (masklen - 1))
		}
		m = (r.Uint64() & mask) | 1
		x = r.Uint64() & mask
		t := size - 1 - v
		if t <= mask {
			t = ((t * m) ^ x) & mask
			t = ((t << 1) & mask) | (t >> (masklen - 1))
			v = size - 1 - t
		}
		v = (v + r.Range(0, size-1)) % size
	}
	return int64(v)
}
