package result

import (
	"bytes"
	"strings"
	"testing"

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
