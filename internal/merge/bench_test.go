package merge

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
	"time"
)

// BenchmarkMerge64Shards merges 64 shard documents of a 10-minute run with
// 1 s intervals (600 each), each with latency, service and lag histograms,
// two phases and pg-style extras: reading the JSON, merging, writing the
// merged JSON. Run:
//
//	go test -run '^$' -bench Merge64 -benchmem ./internal/merge
func BenchmarkMerge64Shards(b *testing.B) {
	const shards, seconds = 64, 600
	docs := make([][]byte, shards)
	var size int
	for i := range shards {
		ivs := make([]int64, seconds)
		for k := range ivs {
			ivs[k] = 1000 + int64(k%7)
		}
		lat := values(uint64(100+i), 50_000)
		svc := values(uint64(200+i), 50_000)
		doc := shardSpec{
			index: i, count: shards, duration: seconds, offset: time.Duration(i) * time.Millisecond,
			latency: lat, service: svc, lag: svc[:10_000], phase: lat[:20_000], intervals: ivs,
			extra:   map[string]float64{"select_ops": 1000, "select_latency_ns_mean": 50_000, "select_latency_ns_stddev": 9000, "reconnects": 0},
			command: fmt.Sprintf("dbmeter pg --duration 10m --progress 1s --shard %d/%d --json s%d.json", i, shards, i),
		}.build()
		doc.Runs[0].Phases["send"] = doc.Runs[0].Phases["build"]
		var buf bytes.Buffer
		if err := encode(&buf, doc); err != nil {
			b.Fatal(err)
		}
		docs[i] = buf.Bytes()
		size += buf.Len()
	}
	b.ReportMetric(float64(size)/float64(shards)/1024, "KiB/shard")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ins := make([]Input, shards)
		for i, d := range docs {
			in, err := Read(fmt.Sprintf("s%d.json", i), bytes.NewReader(d))
			if err != nil {
				b.Fatal(err)
			}
			ins[i] = in
		}
		m, err := Merge(context.Background(), ins)
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Write(io.Discard); err != nil {
			b.Fatal(err)
		}
		if got := m.doc.Runs[0].Ops; got != shards*50_000 || len(m.doc.Runs[0].Intervals) != seconds {
			b.Fatalf("merged %d ops, %d intervals", got, len(m.doc.Runs[0].Intervals))
		}
	}
}

// BenchmarkMergeIntervalLogs64Shards merges the interval logs of 64 shards
// of a 10-minute run, one histogram per second: 38,400 histograms decoded
// and added, streamed. Run:
//
//	go test -run '^$' -bench IntervalLogs64 -benchmem ./internal/merge
func BenchmarkMergeIntervalLogs64Shards(b *testing.B) {
	const shards, seconds = 64, 600
	// One log's content serves every shard: the cost is the same.
	var buf bytes.Buffer
	w, err := NewIntervalLogWriter(&buf, startAt)
	if err != nil {
		b.Fatal(err)
	}
	for k := range seconds {
		h, _ := record(values(uint64(k), 1000))
		h.SetTag("get")
		h.SetStartTimeMs(startAt.Add(time.Duration(k) * time.Second).UnixMilli())
		h.SetEndTimeMs(startAt.Add(time.Duration(k+1) * time.Second).UnixMilli())
		if err := w.Write(h); err != nil {
			b.Fatal(err)
		}
	}
	log := buf.Bytes()
	b.ReportMetric(float64(len(log))/1024, "KiB/shard")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		logs := make([]*IntervalLogReader, shards)
		for i := range logs {
			logs[i] = NewIntervalLogReader(fmt.Sprintf("s%d.hlog", i), bytes.NewReader(log))
		}
		if err := MergeIntervalLogs(io.Discard, logs); err != nil {
			b.Fatal(err)
		}
	}
}
