package query

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
)

// MixName is the workload name of a query file's run as a whole; each of
// its queries is also reported on its own, as q1, q2, … in file order.
const MixName = "mix"

// MaxMixQueries bounds a query file: the load engine numbers operations
// with a byte.
const MaxMixQueries = 255

// MixQuery is one query of a query file.
type MixQuery struct {
	Name   string // q1, q2, … in file order
	SQL    string
	Weight uint64 // relative share of the arrivals, at least 1
	Line   int    // where it is in the file
}

// ParseMix reads a query file: one query per line, as clickhouse-benchmark
// reads its queries from stdin, with an optional weight first. A line is
//
//	[WEIGHT<space or tab>]QUERY
//
// where WEIGHT is a positive integer (1 when absent): no SQL statement
// begins with a digit, so a leading number is always a weight. Blank lines
// and lines whose first non-blank character is # are skipped. Errors name
// the line.
func ParseMix(r io.Reader) ([]MixQuery, error) {
	var out []MixQuery
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20) // a query may be long
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, err := parseMixLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if len(out) == MaxMixQueries {
			return nil, fmt.Errorf("line %d: more than %d queries", n, MaxMixQueries)
		}
		q.Line, q.Name = n, "q"+strconv.Itoa(len(out)+1)
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no query in it: one query per line, optionally after a weight (\"3 SELECT …\")")
	}
	return out, nil
}

func parseMixLine(line string) (MixQuery, error) {
	q := MixQuery{SQL: line, Weight: 1}
	if line[0] >= '0' && line[0] <= '9' {
		i := strings.IndexFunc(line, unicode.IsSpace)
		if i < 0 {
			return MixQuery{}, fmt.Errorf("%q is a weight without a query", line)
		}
		w, err := strconv.ParseUint(line[:i], 10, 32)
		if err != nil || w == 0 {
			return MixQuery{}, fmt.Errorf("weight %q: want a whole number from 1 to %d", line[:i], uint32(1<<32-1))
		}
		q.SQL, q.Weight = strings.TrimSpace(line[i:]), w
	}
	if n := Placeholders(q.SQL); n > 0 {
		return MixQuery{}, fmt.Errorf("the query has %d ? placeholders: a query file's queries are run as written, with their values in them", n)
	}
	return q, nil
}

// mixPicker picks a query for each arrival by weight. The n-th pick
// depends only on the seed and n, so a run with the same seed asks the
// same sequence of queries whatever the timing, and each query's share of
// the arrivals converges on its weight.
type mixPicker struct {
	cum  []uint64 // cumulative weights
	seed uint64
}

func newMixPicker(mix []MixQuery, seed uint64) mixPicker {
	p := mixPicker{seed: seed}
	var sum uint64
	for _, q := range mix {
		sum += q.Weight
		p.cum = append(p.cum, sum)
	}
	return p
}

// pick returns the index of the n-th arrival's query.
func (p mixPicker) pick(n uint64) int {
	total := p.cum[len(p.cum)-1]
	x := splitmix64(p.seed^0x9e3779b97f4a7c15+n) % total
	lo, hi := 0, len(p.cum)-1
	for lo < hi { // the first cumulative weight above x
		mid := (lo + hi) / 2
		if p.cum[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// splitmix64 is a fast, well-mixed hash of a counter (Steele, Lea and
// Flood's SplitMix64 finalizer).
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
