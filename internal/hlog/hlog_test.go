package hlog_test

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/hlog"
	"github.com/dbmeter/dbmeter/internal/load"
)

// Every interval of every operation becomes one tagged line that
// HdrHistogram's own log reader reads back with its counts and times.
func TestIntervalsRoundTrip(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var buf bytes.Buffer
	w, err := hlog.NewWriter(&buf, start)
	if err != nil {
		t.Fatal(err)
	}
	watch := w.Watcher("127.0.0.1:5432/pgx", "tpcb like", []string{"tpcb-like", "select,only"})
	for k := 1; k <= 2; k++ {
		set := hist.NewSet(2, hist.Kept{})
		for i := range 100 * k {
			set[0].Latency.RecordValue(int64(1000 + i))
		}
		set[1].Latency.RecordValue(5)
		watch.Tick(load.Tick{Ops: set, Seconds: 1, End: start.Add(time.Duration(k) * time.Second)})
	}
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	r := hdrhistogram.NewHistogramLogReader(&buf)
	type line struct {
		tag        string
		count      int64
		start, end int64
	}
	var got []line
	for {
		h, err := r.NextIntervalHistogram()
		if err == io.EOF || h == nil {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line{h.Tag(), h.TotalCount(), h.StartTimeMs(), h.EndTimeMs()})
	}
	base := start.UnixMilli()
	want := []line{
		{"127.0.0.1:5432/pgx/tpcb_like/tpcb-like", 100, base, base + 1000},
		{"127.0.0.1:5432/pgx/tpcb_like/select_only", 1, base, base + 1000},
		{"127.0.0.1:5432/pgx/tpcb_like/tpcb-like", 200, base + 1000, base + 2000},
		{"127.0.0.1:5432/pgx/tpcb_like/select_only", 1, base + 1000, base + 2000},
	}
	if len(got) != len(want) {
		t.Fatalf("read %d lines %+v, want %+v", len(got), got, want)
	}
	for i := range want {
		if got[i].tag != want[i].tag || got[i].count != want[i].count {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
