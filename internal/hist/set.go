package hist

import "github.com/HdrHistogram/hdrhistogram-go"

// Op is everything recorded for one operation type.
type Op struct {
	// Latency is measured from the operation's intended start: in open loop
	// the scheduled arrival, in closed loop the end of the previous operation.
	Latency *hdrhistogram.Histogram
	// Service is measured from the actual start. It is nil when it cannot
	// differ from Latency (closed loop), which saves a record per operation.
	Service *hdrhistogram.Histogram
	Ops     int64 // successful operations; only these enter the histograms
	Errors  int64
	Rows    int64
	Bytes   int64
	// Kinds counts errors by class ("timeout", "connection", "server", "other").
	Kinds map[string]int64
}

func newOp(service bool) Op {
	op := Op{Latency: New(), Kinds: map[string]int64{}}
	if service {
		op.Service = New()
	}
	return op
}

func (o *Op) merge(from *Op) {
	o.Latency.Merge(from.Latency)
	if o.Service != nil && from.Service != nil {
		o.Service.Merge(from.Service)
	}
	o.Ops += from.Ops
	o.Errors += from.Errors
	o.Rows += from.Rows
	o.Bytes += from.Bytes
	for k, n := range from.Kinds {
		o.Kinds[k] += n
	}
}

func (o *Op) reset() {
	o.Latency.Reset()
	if o.Service != nil {
		o.Service.Reset()
	}
	o.Ops, o.Errors, o.Rows, o.Bytes = 0, 0, 0, 0
	clear(o.Kinds)
}

// Set holds one Op per operation type, indexed like the workload's op names.
type Set []Op

// NewSet returns an empty Set for n operation types. service says whether
// service time is kept apart from latency.
func NewSet(n int, service bool) Set {
	s := make(Set, n)
	for i := range s {
		s[i] = newOp(service)
	}
	return s
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
	t := newOp(len(s) > 0 && s[0].Service != nil)
	for i := range s {
		t.merge(&s[i])
	}
	return t
}
