package result

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbmeter/dbmeter/internal/hist"
)

func TestHDRRoundTrip(t *testing.T) {
	t.Parallel()
	h := hist.New()
	for i := int64(1); i <= 10_000; i++ {
		h.RecordValue(i * 1000)
	}
	s, err := EncodeHDR(h)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeHDR(s)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := LatencyOf(h), LatencyOf(back); a != b {
		t.Errorf("decoded histogram summarises to %+v, want %+v", b, a)
	}
	if _, err := DecodeHDR("not a histogram"); err == nil {
		t.Error("DecodeHDR accepted garbage")
	}
}

func TestLatencyOfEmpty(t *testing.T) {
	t.Parallel()
	if got := LatencyOf(hist.New()); got != (Latency{}) {
		t.Errorf("LatencyOf(empty) = %+v, want zeros", got)
	}
}

func TestReadRejectsOtherSchemas(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := Write(&buf, &Document{Schema: Schema, Runs: []Run{{Family: "null"}}}); err != nil {
		t.Fatal(err)
	}
	doc, err := Read(&buf)
	if err != nil || len(doc.Runs) != 1 {
		t.Fatalf("Read(Write(doc)) = %v, %v", doc, err)
	}
	if _, err := Read(strings.NewReader(`{"schema":"dbmeter/v0"}`)); err == nil {
		t.Error("Read accepted schema dbmeter/v0")
	}
	if _, err := Read(strings.NewReader(`{`)); err == nil {
		t.Error("Read accepted broken JSON")
	}
}

func FuzzRead(f *testing.F) {
	f.Add(`{"schema":"dbmeter/v1","runs":[{"family":"kv","latency_ns":{"p50":1}}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := Read(strings.NewReader(s))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, doc); err != nil {
			t.Fatalf("Write of a document Read accepted: %v", err)
		}
		if _, err := Read(&buf); err != nil {
			t.Fatalf("a written document does not read back: %v", err)
		}
	})
}

func TestDecodeHDRBoundsTheCountsArray(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name            string
		lowest, highest int64
		digits          int
		ok              bool
	}{
		{"dbmeter's own geometry", hist.Lowest, hist.Highest, hist.Digits, true},
		{"widest range at 3 digits", 1, math.MaxInt64, 3, true},
		{"narrow range at 4 digits", 1, 1000, 4, true},
		{"narrow range at 5 digits", 1, 1000, 5, false},
		{"1 to MaxInt64 at 5 digits: 47 MiB from 56 bytes", 1, math.MaxInt64, 5, false},
		{"1 ns to 1 h at 4 digits", 1, int64(time.Hour), 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := hdrhistogram.New(tc.lowest, tc.highest, tc.digits)
			h.RecordValue(tc.lowest)
			s, err := EncodeHDR(h)
			if err != nil {
				t.Fatal(err)
			}
			want := int64(len(h.Export().Counts))
			if got, err := hdrCountsLen(s); err != nil || got != want {
				t.Fatalf("hdrCountsLen = %d, %v; the library allocates %d", got, err, want)
			}
			back, err := DecodeHDR(s)
			if tc.ok != (err == nil) {
				t.Fatalf("DecodeHDR of %d counts: err = %v, want ok = %v (bound %d)", want, err, tc.ok, MaxHDRCounts)
			}
			if tc.ok && back.TotalCount() != 1 {
				t.Errorf("decoded %d values, want 1", back.TotalCount())
			}
		})
	}
}

// FuzzDecodeHDR checks that no histogram string makes DecodeHDR panic or
// accept a counts array beyond MaxHDRCounts, and that the bound is computed
// from the same geometry the library allocates.
func FuzzDecodeHDR(f *testing.F) {
	h := hist.New()
	h.RecordValue(1000)
	s, err := EncodeHDR(h)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(s)
	f.Fuzz(func(t *testing.T, s string) {
		h, err := DecodeHDR(s)
		if err != nil {
			return
		}
		n := int64(len(h.Export().Counts))
		if n > MaxHDRCounts {
			t.Fatalf("DecodeHDR accepted %d counts, bound %d", n, MaxHDRCounts)
		}
		if m, err := hdrCountsLen(s); m != n {
			t.Fatalf("hdrCountsLen = %d, %v; the library allocated %d", m, err, n)
		}
	})
}
