package hist

import (
	"testing"
	"time"
)

// Merging per-worker recorders must give exactly the histogram one recorder
// would have built from all the values.
func TestDrainMergesShards(t *testing.T) {
	t.Parallel()
	open := Kept{Service: true, Lag: true, Phases: 2}
	shards := []*Recorder{NewRecorder(2, open), NewRecorder(2, open), NewRecorder(2, open)}
	all := NewRecorder(2, open)
	for i := range 30_000 {
		lat := time.Duration(i*37%100_000+1) * time.Microsecond
		op := uint8(i % 2)
		s := Sample{Latency: int64(lat), Service: int64(lat / 2), Lag: int64(lat / 3), Rows: 1, Bytes: 10, Phases: &Phases{lat / 4, lat / 5}}
		shards[i%3].Record(op, &s)
		all.Record(op, &s)
	}
	shards[0].RecordError(1, "timeout")
	all.RecordError(1, "timeout")

	got, want := NewSet(2, open), NewSet(2, open)
	for _, r := range shards {
		r.Drain(got)
	}
	all.Drain(want)
	for op := range got {
		g, w := &got[op], &want[op]
		for p := range g.Phases {
			if g.Phases[p].TotalNs != w.Phases[p].TotalNs || g.Phases[p].Hist.TotalCount() != g.Ops {
				t.Errorf("op %d phase %d: total %d count %d, want %d and %d", op, p, g.Phases[p].TotalNs, g.Phases[p].Hist.TotalCount(), w.Phases[p].TotalNs, g.Ops)
			}
		}
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
			if a, b := g.Lag.ValueAtQuantile(q), w.Lag.ValueAtQuantile(q); a != b {
				t.Errorf("op %d lag p%g: merged %d, single %d", op, q, a, b)
			}
			for p := range g.Phases {
				if a, b := g.Phases[p].Hist.ValueAtQuantile(q), w.Phases[p].Hist.ValueAtQuantile(q); a != b {
					t.Errorf("op %d phase %d p%g: merged %d, single %d", op, p, q, a, b)
				}
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
	r := NewRecorder(1, Kept{})
	r.Record(0, &Sample{Latency: int64(time.Millisecond)})
	first, second := NewSet(1, Kept{}), NewSet(1, Kept{})
	r.Drain(first)
	r.Drain(second)
	if first[0].Ops != 1 || second[0].Ops != 0 || second[0].Latency.TotalCount() != 0 {
		t.Errorf("first drain %d ops, second %d: want 1 then 0", first[0].Ops, second[0].Ops)
	}
}

// Values outside 1 ns – 1 h are clamped, never lost.
func TestOutOfRangeValuesAreKept(t *testing.T) {
	t.Parallel()
	r := NewRecorder(1, Kept{})
	r.Record(0, &Sample{})
	r.Record(0, &Sample{Latency: int64(2 * time.Hour)})
	s := NewSet(1, Kept{})
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
		{"a full buffer flushes", ClosedBuffer, 1, ClosedBuffer},
		{"a partial buffer waits", 10, 1, 0},
		{"an old record flushes with the next", 2, MaxAge, 2},
	}
	for _, tt := range tests {
		r := NewRecorder(1, Kept{})
		b := NewBuffer(r, ClosedBuffer)
		for i := range tt.records {
			b.Record(int64(i)*tt.gap, 0, &Sample{Latency: int64(time.Microsecond), Rows: 1})
		}
		s := NewSet(1, Kept{})
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
	r := NewRecorder(1, Kept{})
	buf := NewBuffer(r, ClosedBuffer)
	b.ReportAllocs()
	var now int64
	for b.Loop() {
		now += 50
		buf.Record(now, 0, &Sample{Latency: 50})
	}
}

// TestBufferDuringDrain: an open-loop worker made mid-run takes its buffer
// while the runner drains the recorder at an interval tick. Under the race
// detector (make race) this failed while NewBuffer read the spare set that
// Drain swaps.
func TestBufferDuringDrain(t *testing.T) {
	rec := NewRecorder(2, Kept{Service: true, Lag: true})
	done := make(chan struct{})
	go func() {
		defer close(done)
		dst := NewSet(2, Kept{Service: true, Lag: true})
		for range 200 {
			rec.Drain(dst)
		}
	}()
	for range 200 {
		b := NewBuffer(rec, 4)
		b.Record(1, 0, &Sample{Latency: 1})
		b.Flush()
	}
	<-done
}
