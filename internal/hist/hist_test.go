package hist

import (
	"testing"
	"time"
)

// Merging per-worker recorders must give exactly the histogram one recorder
// would have built from all the values.
func TestDrainMergesShards(t *testing.T) {
	t.Parallel()
	shards := []*Recorder{NewRecorder(2, true), NewRecorder(2, true), NewRecorder(2, true)}
	all := NewRecorder(2, true)
	for i := range 30_000 {
		lat := time.Duration(i*37%100_000+1) * time.Microsecond
		op := uint8(i % 2)
		shards[i%3].Record(op, lat, lat/2, 1, 10)
		all.Record(op, lat, lat/2, 1, 10)
	}
	shards[0].RecordError(1, "timeout")
	all.RecordError(1, "timeout")

	got, want := NewSet(2, true), NewSet(2, true)
	for _, r := range shards {
		r.Drain(got)
	}
	all.Drain(want)
	for op := range got {
		g, w := &got[op], &want[op]
		if g.Ops != w.Ops || g.Rows != w.Rows || g.Bytes != w.Bytes || g.Errors != w.Errors {
			t.Errorf("op %d counts: got %d/%d/%d/%d, want %d/%d/%d/%d", op, g.Ops, g.Rows, g.Bytes, g.Errors, w.Ops, w.Rows, w.Bytes, w.Errors)
		}
		for _, q := range []float64{0, 50, 90, 99, 99.9, 100} {
			if a, b := g.Latency.ValueAtQuantile(q), w.Latency.ValueAtQuantile(q); a != b {
				t.Errorf("op %d latency p%g: merged %d, single %d", op, q, a, b)
			}
			if a, b := g.Service.ValueAtQuantile(q), w.Service.ValueAtQuantile(q); a != b {
				t.Errorf("op %d service p%g: merged %d, single %d", op, q, a, b)
			}
		}
	}
	if got[1].Kinds["timeout"] != 1 {
		t.Errorf("error kinds = %v, want timeout 1", got[1].Kinds)
	}
}

// A drained recorder starts empty: intervals do not overlap.
func TestDrainEmpties(t *testing.T) {
	t.Parallel()
	r := NewRecorder(1, false)
	r.Record(0, time.Millisecond, 0, 0, 0)
	first, second := NewSet(1, false), NewSet(1, false)
	r.Drain(first)
	r.Drain(second)
	if first[0].Ops != 1 || second[0].Ops != 0 || second[0].Latency.TotalCount() != 0 {
		t.Errorf("first drain %d ops, second %d: want 1 then 0", first[0].Ops, second[0].Ops)
	}
}

// Values outside 1 ns – 1 h are clamped, never lost.
func TestOutOfRangeValuesAreKept(t *testing.T) {
	t.Parallel()
	r := NewRecorder(1, false)
	r.Record(0, 0, 0, 0, 0)
	r.Record(0, 2*time.Hour, 0, 0, 0)
	s := NewSet(1, false)
	r.Drain(s)
	if n := s[0].Latency.TotalCount(); n != 2 {
		t.Errorf("histogram holds %d values, want 2", n)
	}
}

func TestBufferFlushes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		records int
		gap     int64 // ns between records
		want    int64 // ops visible before Flush
	}{
		{"a full buffer flushes", bufferCap, 1, bufferCap},
		{"a partial buffer waits", 10, 1, 0},
		{"an old record flushes with the next", 2, MaxAge, 2},
	}
	for _, tt := range tests {
		r := NewRecorder(1, false)
		b := NewBuffer(r)
		for i := range tt.records {
			b.Record(int64(i)*tt.gap, 0, time.Microsecond, 1, 0)
		}
		s := NewSet(1, false)
		r.Drain(s)
		if s[0].Ops != tt.want {
			t.Errorf("%s: %d ops reached the recorder, want %d", tt.name, s[0].Ops, tt.want)
		}
		b.Flush()
		r.Drain(s)
		if s[0].Ops != int64(tt.records) || s[0].Rows != int64(tt.records) || s[0].Latency.TotalCount() != int64(tt.records) {
			t.Errorf("%s: after Flush %d ops, %d rows; want %d", tt.name, s[0].Ops, s[0].Rows, tt.records)
		}
	}
}

func BenchmarkBufferRecord(b *testing.B) {
	r := NewRecorder(1, false)
	buf := NewBuffer(r)
	b.ReportAllocs()
	var now int64
	for b.Loop() {
		now += 50
		buf.Record(now, 0, 50, 0, 0)
	}
}
