package kvycsb

import (
	"cmp"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
)

// heat counts the records a YCSB workload's chooser picked in the measured
// window, for the cell's self-check figure hottest_1pct_share: the share of
// picks that went to the hottest 1 % of the records. Picks alternate
// between two halves of the sample; the hottest records are found in one
// half and their share is measured in the other. Found and measured in one
// sample, chance alone would make some records look hot: uniform picks
// over 20,000 records would show about 2 % instead of 1 %.
type heat struct {
	measuring atomic.Bool
	mu        struct {
		sync.Mutex
		counts heatCounts
	}
}

// heatCounts are picks per record number, in the two halves. A worker
// keeps its own (4 bytes per record per half) and merges them at the end.
type heatCounts struct {
	half [2][]uint32
	next int
}

func (c *heatCounts) add(n int64) {
	h := &c.half[c.next]
	c.next ^= 1
	if need := int(n) + 1; need > len(*h) {
		*h = slices.Grow(*h, need-len(*h))[:need]
	}
	(*h)[n]++
}

func (h *heat) merge(c *heatCounts) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, src := range c.half {
		dst := &h.mu.counts.half[i]
		if len(src) > len(*dst) {
			*dst = slices.Grow(*dst, len(src)-len(*dst))[:len(src)]
		}
		for n, v := range src {
			(*dst)[n] += v
		}
	}
}

// hottestShare is the share of the second half's picks that went to the
// records the first half picked most: ceil(records/100) of them, records
// being the records loaded (so inserts, which uniform and hotspot never
// pick, do not move the mark), ties broken by record number. False when
// nothing was picked.
func (h *heat) hottestShare(records int64) (float64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	find, measure := h.mu.counts.half[0], h.mu.counts.half[1]
	at := func(s []uint32, i int64) uint32 {
		if i < int64(len(s)) {
			return s[i]
		}
		return 0
	}
	var total uint64
	for _, v := range measure {
		total += uint64(v)
	}
	if total == 0 || records < 1 {
		return 0, false
	}
	k := (records + 99) / 100
	records = max(records, int64(len(find)), int64(len(measure))) // the inserted too
	// The k-th highest count, found from how many records have each
	// count: no sort of every record.
	byCount := map[uint32]int64{}
	for i := range records {
		byCount[at(find, i)]++
	}
	counts := slices.SortedFunc(maps.Keys(byCount), func(a, b uint32) int { return cmp.Compare(b, a) })
	var above int64 // records with a count above the threshold
	threshold := counts[len(counts)-1]
	for _, c := range counts {
		if above+byCount[c] >= k {
			threshold = c
			break
		}
		above += byCount[c]
	}
	atThreshold := k - above // taken in record order
	var hot uint64
	for i := range records {
		switch c := at(find, i); {
		case c > threshold:
			hot += uint64(at(measure, i))
		case c == threshold && atThreshold > 0:
			hot += uint64(at(measure, i))
			atThreshold--
		}
	}
	return float64(hot) / float64(total), true
}
