package hist

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// MaxPhases bounds the named phases one operation may carry (build, send,
// decode, …): a fixed bound keeps a sample's phases in an array, so
// recording them never allocates.
const MaxPhases = 4

// Kept says which histograms a Set keeps besides latency.
type Kept struct {
	// Service and Lag are kept apart from latency in open loop only: in
	// closed loop an operation starts when it is meant to, so service time
	// equals latency and the lag is zero.
	Service, Lag bool
	// Phases is the number of named phases (0 to MaxPhases).
	Phases int
}

// Phase is one named part of an operation, over the operations that had it.
type Phase struct {
	Hist    *hdrhistogram.Histogram
	TotalNs int64 // exact sum, which the histogram's mean only approximates
}

// Op is everything recorded for one operation type.
type Op struct {
	// Latency is measured from the operation's intended start: in open loop
	// the scheduled arrival, in closed loop the end of the previous operation.
	Latency *hdrhistogram.Histogram
	// Service is measured from the actual start; Lag is the actual start
	// minus the intended one: how late dbmeter itself was. Both are nil in
	// closed loop.
	Service *hdrhistogram.Histogram
	Lag     *hdrhistogram.Histogram
	Phases  []Phase
	Ops     int64 // successful operations; only these enter the histograms
	Errors  int64
	Rows    int64
	Bytes   int64
	// Kinds counts errors by class ("timeout", "connection", "server", "other").
	Kinds map[string]int64
}

func newOp(k Kept) Op {
	op := Op{Latency: New(), Kinds: map[string]int64{}}
	if k.Service {
		op.Service = New()
	}
	if k.Lag {
		op.Lag = New()
	}
	for range k.Phases {
		op.Phases = append(op.Phases, Phase{Hist: New()})
	}
	return op
}

// mergeHist adds from into dst, a histogram the Op keeps (nil: not kept,
// and from, of an Op of the same Kept, is nil too). Both come from New, so
// every value fits.
func mergeHist(dst, from *hdrhistogram.Histogram) {
	if dst != nil {
		Add(dst, from)
	}
}

func (o *Op) merge(from *Op) {
	mergeHist(o.Latency, from.Latency)
	mergeHist(o.Service, from.Service)
	mergeHist(o.Lag, from.Lag)
	for i := range min(len(o.Phases), len(from.Phases)) {
		mergeHist(o.Phases[i].Hist, from.Phases[i].Hist)
		o.Phases[i].TotalNs += from.Phases[i].TotalNs
	}
	o.Ops += from.Ops
	o.Errors += from.Errors
	o.Rows += from.Rows
	o.Bytes += from.Bytes
	for k, n := range from.Kinds {
		o.Kinds[k] += n
	}
}

func resetHist(h *hdrhistogram.Histogram) {
	if h != nil && h.TotalCount() > 0 {
		h.Reset()
	}
}

func (o *Op) reset() {
	resetHist(o.Latency)
	resetHist(o.Service)
	resetHist(o.Lag)
	for i := range o.Phases {
		resetHist(o.Phases[i].Hist)
		o.Phases[i].TotalNs = 0
	}
	o.Ops, o.Errors, o.Rows, o.Bytes = 0, 0, 0, 0
	clear(o.Kinds)
}

// record adds one successful operation.
func (o *Op) record(s *Sample, nPhases int) {
	o.Latency.RecordValue(clamp(s.Latency))
	if o.Service != nil {
		o.Service.RecordValue(clamp(s.Service))
	}
	if o.Lag != nil {
		o.Lag.RecordValue(clamp(s.Lag))
	}
	for i := range nPhases {
		if s.Phases == nil {
			break
		}
		if d := s.Phases[i]; d > 0 {
			o.Phases[i].Hist.RecordValue(clamp(int64(d)))
			o.Phases[i].TotalNs += int64(d)
		}
	}
	o.Ops++
	o.Rows += s.Rows
	o.Bytes += s.Bytes
}

// Phases holds the durations of an operation's named parts; 0 is a part
// the operation did not have.
type Phases [MaxPhases]time.Duration

// Sample is one successful operation's figures, in nanoseconds. Phases is
// nil for an operation without phases.
type Sample struct {
	Latency, Service, Lag int64
	Rows, Bytes           int64
	Phases                *Phases
}

// Set holds one Op per operation type, indexed like the workload's op names.
type Set []Op

// NewSet returns an empty Set for n operation types keeping k.
func NewSet(n int, k Kept) Set {
	s := make(Set, n)
	for i := range s {
		s[i] = newOp(k)
	}
	return s
}

// Kept says what s keeps.
func (s Set) Kept() Kept {
	if len(s) == 0 {
		return Kept{}
	}
	return Kept{Service: s[0].Service != nil, Lag: s[0].Lag != nil, Phases: len(s[0].Phases)}
}

// Merge adds from into s. Both must have the same length.
func (s Set) Merge(from Set) {
	for i := range s {
		s[i].merge(&from[i])
	}
}

// Reset empties every Op, keeping the allocated histograms.
func (s Set) Reset() {
	for i := range s {
		s[i].reset()
	}
}

// Total merges every operation type into one Op.
func (s Set) Total() Op {
	t := newOp(s.Kept())
	for i := range s {
		t.merge(&s[i])
	}
	return t
}
