package ycsb

import (
	"math"
	"math/rand/v2"
)

// ZipfianConstant is YCSB's skew (ZipfianGenerator.ZIPFIAN_CONSTANT).
const ZipfianConstant = 0.99

// The scrambled zipfian draws ranks from 10^10 items whatever the record
// count, with zeta precomputed for that count and constant
// (ScrambledZipfianGenerator.ZETAN, ITEM_COUNT, USED_ZIPFIAN_CONSTANT), and
// spreads them over the records by hashing: the hot records keep their
// heat when records are added, and are not neighbours.
const (
	scrambledItems = 10_000_000_000
	scrambledZetan = 26.46902820178302
)

// Zipfian is YCSB's ZipfianGenerator (Gray et al., "Quickly Generating
// Billion-Record Synthetic Databases", SIGMOD 1994): item base is the most
// popular, base+1 the next, and so on. Its zeta grows incrementally when
// asked for more items than it was made with (as SkewedLatest does). A
// Zipfian is not safe for concurrent use; copy it per worker.
type Zipfian struct {
	items, base         int64
	theta, alpha, zetan float64
	eta, zeta2theta     float64
	half                float64 // 0.5^theta, the second item's weight
	countForZeta        int64
}

// NewZipfian returns a Zipfian over min…max with the given constant and
// zeta (Zeta(max-min+1, constant), or a precomputed value).
func NewZipfian(min, max int64, constant, zetan float64) *Zipfian {
	z := &Zipfian{items: max - min + 1, base: min, theta: constant, zetan: zetan}
	z.zeta2theta = Zeta(0, 2, constant, 0)
	z.alpha = 1 / (1 - constant)
	z.half = math.Pow(0.5, constant)
	z.countForZeta = z.items
	z.eta = z.etaFor()
	return z
}

// NewZipfianRange computes the zeta of min…max, which takes time linear in
// the number of items.
func NewZipfianRange(min, max int64, constant float64) *Zipfian {
	return NewZipfian(min, max, constant, Zeta(0, max-min+1, constant, 0))
}

// Zeta adds 1/i^theta for i in st+1…n to initial.
func Zeta(st, n int64, theta, initial float64) float64 {
	sum := initial
	for i := st; i < n; i++ {
		sum += 1 / math.Pow(float64(i+1), theta)
	}
	return sum
}

// etaFor uses the item count the generator was made with, not the grown
// one, as YCSB does.
func (z *Zipfian) etaFor() float64 {
	return (1 - math.Pow(2/float64(z.items), 1-z.theta)) / (1 - z.zeta2theta/z.zetan)
}

// Next draws an item from the items the generator was made with.
func (z *Zipfian) Next(r *rand.Rand) int64 { return z.NextOf(r, z.items) }

// NextOf draws an item from the first itemCount, growing zeta first if
// itemCount is larger than before. YCSB recomputes zeta from scratch for a
// smaller count only when told to; it is never told to, and neither is
// this.
func (z *Zipfian) NextOf(r *rand.Rand, itemCount int64) int64 {
	if itemCount > z.countForZeta {
		z.zetan = Zeta(z.countForZeta, itemCount, z.theta, z.zetan)
		z.countForZeta = itemCount
		z.eta = z.etaFor()
	}
	u := r.Float64()
	uz := u * z.zetan
	if uz < 1 {
		return z.base
	}
	if uz < 1+z.half {
		return z.base + 1
	}
	return z.base + int64(float64(itemCount)*math.Pow(z.eta*u-z.eta+1, z.alpha))
}

// ScrambledZipfian is YCSB's ScrambledZipfianGenerator over min…max.
type ScrambledZipfian struct {
	gen    *Zipfian
	min, n int64
}

// NewScrambledZipfian returns the scrambled zipfian over min…max with
// YCSB's constant.
func NewScrambledZipfian(min, max int64) *ScrambledZipfian {
	// YCSB makes the inner generator over 0…ITEM_COUNT inclusive: one item
	// more than the zeta it is given was computed for.
	return &ScrambledZipfian{gen: NewZipfian(0, scrambledItems, ZipfianConstant, scrambledZetan), min: min, n: max - min + 1}
}

// Next draws a record number.
func (s *ScrambledZipfian) Next(r *rand.Rand) int64 {
	return s.min + FNVHash64(s.gen.Next(r))%s.n
}
