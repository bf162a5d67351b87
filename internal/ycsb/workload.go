package ycsb

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Op is one of CoreWorkload's transactions.
type Op uint8

// The operations, in the order CoreWorkload offers them to its operation
// chooser (which the draws depend on).
const (
	Read Op = iota
	Update
	Insert
	Scan
	ReadModifyWrite
	numOps
)

var opNames = [numOps]string{"read", "update", "insert", "scan", "read-modify-write"}

func (o Op) String() string { return opNames[o] }

// The request distributions (requestdistribution).
const (
	DistZipfian = "zipfian"
	DistLatest  = "latest"
	DistUniform = "uniform"
	DistHotspot = "hotspot"
)

// Distributions lists the request distributions dbmeter ports.
func Distributions() []string { return []string{DistZipfian, DistLatest, DistUniform, DistHotspot} }

// Workload is one of YCSB's workloads/workload[a-f] property files.
type Workload struct {
	Name string // "a" … "f"
	// Proportions of each operation, indexed by Op.
	Proportions [numOps]float64
	// Distribution is requestdistribution.
	Distribution string
	// MaxScanLength is maxscanlength (CoreWorkload's default 1000, E's
	// 100); scan lengths are uniform over 1…MaxScanLength.
	MaxScanLength int64
}

// CoreWorkload's defaults the workload files keep.
const (
	DefaultFieldCount    = 10  // fieldcount
	DefaultFieldLength   = 100 // fieldlength (constant)
	defaultMaxScanLength = 1000
	minScanLength        = 1
)

// Workloads returns YCSB's workloads A–F as its workload files define them.
func Workloads() []Workload {
	w := func(name, dist string, p map[Op]float64, maxScan int64) Workload {
		x := Workload{Name: name, Distribution: dist, MaxScanLength: maxScan}
		for op, v := range p {
			x.Proportions[op] = v
		}
		return x
	}
	return []Workload{
		w("a", DistZipfian, map[Op]float64{Read: 0.5, Update: 0.5}, defaultMaxScanLength),
		w("b", DistZipfian, map[Op]float64{Read: 0.95, Update: 0.05}, defaultMaxScanLength),
		w("c", DistZipfian, map[Op]float64{Read: 1}, defaultMaxScanLength),
		w("d", DistLatest, map[Op]float64{Read: 0.95, Insert: 0.05}, defaultMaxScanLength),
		w("e", DistZipfian, map[Op]float64{Scan: 0.95, Insert: 0.05}, 100),
		w("f", DistZipfian, map[Op]float64{Read: 0.5, ReadModifyWrite: 0.5}, defaultMaxScanLength),
	}
}

// Lookup returns workload name ("a" … "f").
func Lookup(name string) (Workload, error) {
	for _, w := range Workloads() {
		if w.Name == name {
			return w, nil
		}
	}
	return Workload{}, fmt.Errorf("unknown YCSB workload %q (known: a, b, c, d, e, f)", name)
}

// Ops returns the operations the workload runs, in chooser order.
func (w Workload) Ops() []Op {
	var out []Op
	for op := range numOps {
		if w.Proportions[op] > 0 {
			out = append(out, op)
		}
	}
	return out
}

// OpChooser is YCSB's DiscreteGenerator over a workload's operations. It
// returns an index into Workload.Ops.
type OpChooser struct{ weights []float64 }

// OpChooser returns the chooser of w's operations.
func (w Workload) OpChooser() OpChooser {
	var sum float64
	for _, op := range w.Ops() {
		sum += w.Proportions[op]
	}
	var c OpChooser
	for _, op := range w.Ops() {
		c.weights = append(c.weights, w.Proportions[op]/sum)
	}
	return c
}

// Next draws an index into the workload's Ops.
func (c OpChooser) Next(r *rand.Rand) int {
	v := r.Float64()
	for i, p := range c.weights {
		if v < p {
			return i
		}
		v -= p
	}
	return len(c.weights) - 1 // rounding left v at the very top
}

// ScanLength returns the chooser of scan lengths, 1…MaxScanLength.
func (w Workload) ScanLength() Uniform { return NewUniform(minScanLength, w.MaxScanLength) }

// ExpectedNewKeys is how many records CoreWorkload expects a run of
// operationCount operations to insert: twice the insert proportion's share
// ("2 is fudge factor"). The zipfian chooser covers them from the start,
// so that inserts do not move which records are hot.
func (w Workload) ExpectedNewKeys(operationCount int64) int64 {
	return int64(float64(operationCount) * w.Proportions[Insert] * 2)
}

// Keys makes the record choosers of one run: recordCount records exist
// when it starts, inserted numbers come from inserted (made with
// NewCounter(recordCount)), and expectedNew is ExpectedNewKeys.
type Keys struct {
	dist     string
	records  int64
	expected int64
	inserted *Counter
	latest   *Latest
}

// NewKeys prepares choosers of dist (one of Distributions). Latest
// computes its zeta here, once, for all the workers.
func NewKeys(dist string, recordCount, expectedNew int64, inserted *Counter) (*Keys, error) {
	if recordCount < 1 {
		return nil, fmt.Errorf("need at least 1 record, got %d", recordCount)
	}
	k := &Keys{dist: dist, records: recordCount, expected: expectedNew, inserted: inserted}
	switch dist {
	case DistZipfian, DistUniform, DistHotspot:
	case DistLatest:
		if recordCount < 2 {
			return nil, fmt.Errorf("the latest distribution needs at least 2 records, got %d", recordCount)
		}
		k.latest = NewLatest(inserted)
	default:
		return nil, fmt.Errorf("unknown request distribution %q (known: %s)", dist, strings.Join(Distributions(), ", "))
	}
	return k, nil
}

// Chooser returns a record chooser for one worker.
func (k *Keys) Chooser() *KeyChooser {
	var gen Chooser
	switch k.dist {
	case DistZipfian:
		gen = NewScrambledZipfian(0, k.records+k.expected)
	case DistUniform:
		gen = NewUniform(0, k.records-1)
	case DistHotspot:
		gen = NewHotspot(0, k.records-1, HotspotDataFraction, HotspotOpnFraction)
	case DistLatest:
		gen = k.latest.Chooser()
	}
	return &KeyChooser{gen: gen, inserted: k.inserted}
}

// KeyChooser is CoreWorkload.nextKeynum: it draws again any record not
// yet inserted (the zipfian covers records to come).
type KeyChooser struct {
	gen      Chooser
	inserted *Counter
}

// Next draws the number of an existing record.
func (c *KeyChooser) Next(r *rand.Rand) int64 {
	for {
		if n := c.gen.Next(r); n <= c.inserted.Last() {
			return n
		}
	}
}

// Record is the shape of YCSB's records.
type Record struct {
	FieldCount  int
	FieldLength int
	// Ordered is insertorder=ordered: keys hold the record number itself
	// rather than its hash, so records are stored in insert order.
	Ordered bool
}

// DefaultRecord is YCSB's: ten 100-byte fields, hashed keys.
func DefaultRecord() Record {
	return Record{FieldCount: DefaultFieldCount, FieldLength: DefaultFieldLength}
}

// Validate reports the first setting that cannot work.
func (r Record) Validate() error {
	switch {
	case r.FieldCount < 1:
		return fmt.Errorf("field count must be at least 1, got %d", r.FieldCount)
	case r.FieldLength < 0:
		return fmt.Errorf("field length must not be negative, got %d", r.FieldLength)
	}
	return nil
}

// Size is a record's size in bytes: its fields back to back.
func (r Record) Size() int { return r.FieldCount * r.FieldLength }

// AppendKey appends the key of record n: CoreWorkload.buildKeyName with
// zeropadding 1, "user" and the record number or its FNV-64 hash.
func (r Record) AppendKey(dst []byte, n int64) []byte {
	if !r.Ordered {
		n = FNVHash64(n)
	}
	return strconv.AppendInt(append(dst, "user"...), n, 10)
}

// Fill fills value with random printable bytes, as YCSB's
// RandomByteIterator does (' ' plus six random bits): values compress
// about as YCSB's do.
func Fill(r *rand.Rand, value []byte) {
	for i := 0; i < len(value); i += 8 {
		u := r.Uint64()
		for j := i; j < min(i+8, len(value)); j++ {
			value[j] = ' ' + byte(u&63)
			u >>= 8
		}
	}
}

// UpdateField rewrites one field of record, chosen uniformly, with new
// random bytes: CoreWorkload's update with writeallfields=false.
func (r Record) UpdateField(rng *rand.Rand, record []byte) {
	f := rng.IntN(r.FieldCount)
	Fill(rng, record[f*r.FieldLength:(f+1)*r.FieldLength])
}

// Distribution names the distribution the choosers draw from.
func (k *Keys) Distribution() string { return k.dist }
