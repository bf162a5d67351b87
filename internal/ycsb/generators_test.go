package ycsb_test

import (
	"fmt"
	"math"
	mrand "math/rand"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pingcap/go-ycsb/pkg/generator"

	"github.com/dbmeter/dbmeter/internal/ycsb"
)

// draws and records size the comparison: a million draws over a thousand
// records give each record about a thousand draws under uniform.
const (
	draws   = 1_000_000
	records = 1000
)

// YCSB's own keys for records 0, 1 and 2 with insertorder=hashed, as the
// Java client writes them.
func TestKeysAreYCSBs(t *testing.T) {
	for n, want := range []string{"user6284781860667377211", "user8517097267634966620", "user1820151046732198393"} {
		if got := string(ycsb.DefaultRecord().AppendKey(nil, int64(n))); got != want {
			t.Errorf("key of record %d = %s, want %s", n, got, want)
		}
	}
	ordered := ycsb.Record{FieldCount: 1, Ordered: true}
	if got := string(ordered.AppendKey(nil, 42)); got != "user42" {
		t.Errorf("ordered key of record 42 = %s, want user42", got)
	}
}

// Each chooser is drawn a million times beside go-ycsb's generator of the
// same distribution (pkg/generator v1.0.1), and the two frequency curves
// must agree within a bound a wrong constant or a missing scramble exceeds
// by far.
//
// go-ycsb's scrambled zipfian hashes the rank's bytes high byte first where
// YCSB hashes them low byte first, so its hot records are other records,
// and which ranks share a record differs too: even its curve sorted
// hottest first differs from YCSB's by more than chance (its hottest ten
// records take 12.5 % of draws, YCSB's 13.1 %). So the scrambled zipfian is
// checked record by record against go-ycsb's zipfian (its constant and its
// precomputed zeta over 10^10 items) scrambled with YCSB's hash, which
// TestKeysAreYCSBs pins to YCSB's own keys.
func TestChoosersMatchGoYCSB(t *testing.T) {
	basis := ycsb.NewCounter(records)
	latest := ycsb.NewLatest(basis)
	goScrambledRanks := generator.NewZipfian(0, 10_000_000_000, generator.ZipfianConstant, 26.46902820178302)
	cases := []struct {
		name string
		mine ycsb.Chooser
		ref  func(r *mrand.Rand) int64
	}{
		{"uniform", ycsb.NewUniform(0, records-1), generator.NewUniform(0, records-1).Next},
		{"hotspot", ycsb.NewHotspot(0, records-1, ycsb.HotspotDataFraction, ycsb.HotspotOpnFraction),
			generator.NewHotspot(0, records-1, 0.2, 0.8).Next},
		{"latest", latest.Chooser(), generator.NewSkewedLatest(generator.NewCounter(records)).Next},
		{"zipfian", ycsb.NewScrambledZipfian(0, records-1), func(r *mrand.Rand) int64 {
			return ycsb.FNVHash64(goScrambledRanks.Next(r)) % records
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, d := range disagreements(c.mine, c.ref) {
				t.Error(d)
			}
		})
	}
}

// The comparison fails a chooser broken as a port could break it: a wrong
// constant, a wrong precomputed zeta, the scramble left out, latest
// favouring the oldest records, hotspot's fractions swapped. Each is
// compared with the reference of the distribution it claims to be.
func TestChoosersComparisonFailsBrokenOnes(t *testing.T) {
	goScrambledRanks := generator.NewZipfian(0, 10_000_000_000, generator.ZipfianConstant, 26.46902820178302)
	zipfianRef := func(r *mrand.Rand) int64 { return ycsb.FNVHash64(goScrambledRanks.Next(r)) % records }
	scrambled := func(z *ycsb.Zipfian) ycsb.Chooser {
		return chooserFunc(func(r *rand.Rand) int64 { return ycsb.FNVHash64(z.Next(r)) % records })
	}
	oldest := ycsb.NewZipfianRange(0, records-2, ycsb.ZipfianConstant)
	cases := []struct {
		name   string
		broken ycsb.Chooser
		ref    func(r *mrand.Rand) int64
	}{
		{"zipfian constant 0.98", scrambled(ycsb.NewZipfian(0, 10_000_000_000, 0.98, 26.46902820178302)), zipfianRef},
		{"zipfian zeta 25", scrambled(ycsb.NewZipfian(0, 10_000_000_000, ycsb.ZipfianConstant, 25)), zipfianRef},
		{"zipfian not scrambled", ycsb.NewZipfianRange(0, records-1, ycsb.ZipfianConstant), zipfianRef},
		{"latest from the oldest", oldest, generator.NewSkewedLatest(generator.NewCounter(records)).Next},
		{"hotspot fractions swapped", ycsb.NewHotspot(0, records-1, ycsb.HotspotOpnFraction, ycsb.HotspotDataFraction),
			generator.NewHotspot(0, records-1, 0.2, 0.8).Next},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := disagreements(c.broken, c.ref); len(d) == 0 {
				t.Error("the comparison with go-ycsb passed a broken chooser")
			}
		})
	}
}

type chooserFunc func(r *rand.Rand) int64

func (f chooserFunc) Next(r *rand.Rand) int64 { return f(r) }

// disagreements compares a million draws of mine with a million of ref,
// record by record and over the hottest records, and says where the
// frequency curves differ by more than chance allows.
func disagreements(mine ycsb.Chooser, ref func(r *mrand.Rand) int64) []string {
	var out []string
	m, g := countMine(mine), countRef(ref, 3)
	if x2, bound := chiSquare(m, g); x2 > bound {
		out = append(out, fmt.Sprintf("record by record, χ² = %.0f over %d records, bound %.0f: %s", x2, records, bound, curves(m, g)))
	}
	// A thousand bins dilute a small change at the top of the curve; the
	// hottest records, told apart by a third sample, show it.
	bins := hottestBins(countRef(ref, 4))
	if x2, bound := chiSquare(group(m, bins), group(g, bins)); x2 > bound {
		out = append(out, fmt.Sprintf("hottest records, χ² = %.1f over %d bins, bound %.1f: %s", x2, len(bins), bound, curves(m, g)))
	}
	return out
}

func countMine(c ycsb.Chooser) []int64 {
	r := rand.New(rand.NewPCG(1, 2))
	counts := make([]int64, records)
	for range draws {
		counts[c.Next(r)]++
	}
	return counts
}

func countRef(next func(*mrand.Rand) int64, seed int64) []int64 {
	r := mrand.New(mrand.NewSource(seed))
	counts := make([]int64, records)
	for range draws {
		counts[next(r)]++
	}
	return counts
}

// hottestBins groups records by their heat in counts: each of the ten
// hottest alone, the next ninety together, the rest together.
func hottestBins(counts []int64) [][]int {
	order := make([]int, len(counts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return int(counts[y] - counts[x]) })
	bins := make([][]int, 0, 12)
	for _, i := range order[:10] {
		bins = append(bins, []int{i})
	}
	return append(bins, order[10:100], order[100:])
}

func group(counts []int64, bins [][]int) []int64 {
	out := make([]int64, len(bins))
	for b, records := range bins {
		for _, i := range records {
			out[b] += counts[i]
		}
	}
	return out
}

// chiSquare is the two-sample χ² statistic of equal-sized samples, and the
// bound it stays under when both come from one distribution: the degrees
// of freedom plus six standard deviations (a chance failure has odds below
// one in a billion).
func chiSquare(a, b []int64) (x2, bound float64) {
	bins := 0
	for i := range a {
		if n := a[i] + b[i]; n > 0 {
			d := float64(a[i] - b[i])
			x2 += d * d / float64(n)
			bins++
		}
	}
	df := float64(bins - 1)
	return x2, df + 6*math.Sqrt(2*df)
}

// curves describes both frequency curves by the shares of their hottest
// records, for a failure message.
func curves(a, b []int64) string {
	return fmt.Sprintf("hottest 1/10/100 records take %s here, %s in go-ycsb", top(a), top(b))
}

func top(counts []int64) string {
	s := slices.Clone(counts)
	slices.SortFunc(s, func(x, y int64) int { return int(y - x) })
	var out []string
	for _, k := range []int{1, 10, 100} {
		var sum int64
		for _, n := range s[:k] {
			sum += n
		}
		out = append(out, fmt.Sprintf("%.1f%%", 100*float64(sum)/draws))
	}
	return fmt.Sprint(out)
}
