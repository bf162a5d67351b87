package script

import (
	"math"
	"math/bits"
)

// PRNG is pgbench's (PostgreSQL 15's pg_prng) generator: xoroshiro128**
// seeded through splitmix64. dbmeter draws with it, not math/rand, so that
// a script run with the same --random-seed sees the numbers pgbench sees.
// The zero value is not seeded; use NewPRNG.
type PRNG struct{ s0, s1 uint64 }

// NewPRNG seeds a generator as pg_prng_seed does.
func NewPRNG(seed uint64) PRNG {
	var r PRNG
	r.s0 = splitmix64(&seed)
	r.s1 = splitmix64(&seed)
	if r.s0 == 0 && r.s1 == 0 {
		// All zeroes is a fixed point; pg_prng substitutes Knuth's LCG
		// constants.
		r.s0, r.s1 = 0x5851F42D4C957F2D, 0x14057B7EF767814F
	}
	return r
}

func splitmix64(state *uint64) uint64 {
	*state += 0x9E3779B97F4A7C15
	v := *state
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9
	v = (v ^ (v >> 27)) * 0x94D049BB133111EB
	return v ^ (v >> 31)
}

// Uint64 returns the next 64 random bits.
func (r *PRNG) Uint64() uint64 {
	s0 := r.s0
	sx := r.s1 ^ s0
	v := bits.RotateLeft64(s0*5, 7) * 9
	r.s0 = bits.RotateLeft64(s0, 24) ^ sx ^ (sx << 16)
	r.s1 = bits.RotateLeft64(sx, 37)
	return v
}

// Range returns a uniform value in [lo, hi] by bitmask rejection, drawing
// exactly as pg_prng_uint64_range does (lo when the range is empty).
func (r *PRNG) Range(lo, hi uint64) uint64 {
	if hi <= lo {
		return lo
	}
	span := hi - lo
	shift := uint(bits.LeadingZeros64(span))
	for {
		v := r.Uint64() >> shift
		if v <= span {
			return lo + v
		}
	}
}

// Float64 returns a uniform value in [0, 1) from the top 52 bits.
func (r *PRNG) Float64() float64 {
	return math.Ldexp(float64(r.Uint64()>>12), -52)
}

// Normal returns a standard normal value by the basic Box-Muller
// transform, both uniforms taken in (0, 1].
func (r *PRNG) Normal() float64 {
	u1 := 1.0 - r.Float64()
	u2 := 1.0 - r.Float64()
	return math.Sqrt(-2.0*math.Log(u1)) * math.Sin(2.0*math.Pi*u2)
}

// Seeds is how pgbench derives every generator of a run from the base
// seed: one per client for the script's functions, then the default seed
// of the hash functions, then three per thread (script choice, -R
// schedule, log sampling), in that order.
type Seeds struct {
	Random      uint64 // the base seed, :random_seed
	Clients     []PRNG // per client: random(), permute's default seed…
	DefaultSeed int64  // :default_seed
	Choose      []PRNG // per thread: which script runs next
	Throttle    []PRNG // per thread: -R arrival times
	Sample      []PRNG // per thread: --sampling-rate
	ThreadOf    []int  // client → thread, as pgbench deals clients out
	firstOf     []int  // thread → its first client
}

// NewSeeds derives the generators of a run of clients clients on threads
// threads from seed, in pgbench 15's order.
func NewSeeds(seed uint64, clients, threads int) *Seeds {
	base := NewPRNG(seed)
	s := &Seeds{Random: seed}
	for range clients {
		s.Clients = append(s.Clients, NewPRNG(base.Uint64()))
	}
	s.DefaultSeed = int64(base.Uint64())
	dealt := 0
	for i := range threads {
		s.Choose = append(s.Choose, NewPRNG(base.Uint64()))
		s.Throttle = append(s.Throttle, NewPRNG(base.Uint64()))
		s.Sample = append(s.Sample, NewPRNG(base.Uint64()))
		n := (clients - dealt + threads - i - 1) / (threads - i)
		s.firstOf = append(s.firstOf, dealt)
		for range n {
			s.ThreadOf = append(s.ThreadOf, i)
		}
		dealt += n
	}
	return s
}
