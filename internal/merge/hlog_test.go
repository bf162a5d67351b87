package merge

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/result"
)

// shardLog writes a shard's interval log: for each second k and tag, the
// histogram of vals(k, tag).
func shardLog(t *testing.T, start time.Time, seconds int, tags []string, vals func(k int, tag string) []int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewIntervalLogWriter(&buf, start)
	if err != nil {
		t.Fatal(err)
	}
	for k := range seconds {
		for _, tag := range tags {
			h, _ := record(vals(k, tag))
			h.SetTag(tag)
			h.SetStartTimeMs(start.Add(time.Duration(k) * time.Second).UnixMilli())
			h.SetEndTimeMs(start.Add(time.Duration(k+1) * time.Second).UnixMilli())
			if err := w.Write(h); err != nil {
				t.Fatal(err)
			}
		}
	}
	return buf.Bytes()
}

func readAll(t *testing.T, name string, b []byte) []*hdrhistogram.Histogram {
	t.Helper()
	r := NewIntervalLogReader(name, bytes.NewReader(b))
	var out []*hdrhistogram.Histogram
	for {
		h, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			return out
		}
		out = append(out, h)
	}
}

func TestIntervalLogRoundTrip(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 23, 12, 0, 0, 250_000_000, time.UTC)
	all := values(7, 3000)
	b := shardLog(t, start, 3, []string{"get", "set"}, func(k int, tag string) []int64 { return all[k*1000 : k*1000+500+len(tag)] })
	if !bytes.HasPrefix(b, []byte("#[Histogram log format version")) {
		t.Errorf("log does not start with hdrhistogram-go's header: %q", b[:40])
	}
	hs := readAll(t, "s.hlog", b)
	if len(hs) != 6 {
		t.Fatalf("read %d intervals, want 6", len(hs))
	}
	for i, h := range hs {
		k, tag := i/2, []string{"get", "set"}[i%2]
		want, _ := record(all[k*1000 : k*1000+500+len(tag)])
		wantStart := start.Add(time.Duration(k) * time.Second).UnixMilli()
		if h.Tag() != tag || !h.Equals(want) || math.Abs(float64(h.StartTimeMs()-wantStart)) > 1 {
			t.Errorf("interval %d: tag %q, start %d, %d values; want %q, %d, %d", i, h.Tag(), h.StartTimeMs(), h.TotalCount(), tag, wantStart, want.TotalCount())
		}
	}
}

func TestMergeIntervalLogsIsExactPerInterval(t *testing.T) {
	t.Parallel()
	const shards, seconds = 3, 4
	tags := []string{"get", "set"}
	all := values(8, 40_000)
	// The values of second k, tag tag: a block of all; shard s takes every
	// shards-th of them.
	block := func(k int, tag string) []int64 {
		off := (k*len(tags) + slices.Index(tags, tag)) * 5000
		return all[off : off+5000]
	}
	var logs []*IntervalLogReader
	for s := range shards {
		start := startAt.Add(time.Duration(s) * 3 * time.Millisecond)
		b := shardLog(t, start, seconds, tags, func(k int, tag string) []int64 {
			var mine []int64
			for i, v := range block(k, tag) {
				if i%shards == s {
					mine = append(mine, v)
				}
			}
			return mine
		})
		logs = append(logs, NewIntervalLogReader(fmt.Sprintf("s%d.hlog", s), bytes.NewReader(b)))
	}
	var out bytes.Buffer
	if err := MergeIntervalLogs(&out, logs); err != nil {
		t.Fatal(err)
	}
	hs := readAll(t, "merged.hlog", out.Bytes())
	if len(hs) != seconds*len(tags) {
		t.Fatalf("merged log has %d intervals, want %d", len(hs), seconds*len(tags))
	}
	for i, h := range hs {
		k, tag := i/len(tags), tags[i%len(tags)]
		want, _ := record(block(k, tag))
		if h.Tag() != tag || result.LatencyOf(h) != result.LatencyOf(want) {
			t.Errorf("interval %d %s: %+v\n want the union's %+v", k, tag, result.LatencyOf(h), result.LatencyOf(want))
		}
		if s := startAt.Add(time.Duration(k) * time.Second).UnixMilli(); math.Abs(float64(h.StartTimeMs()-s)) > 1 {
			t.Errorf("interval %d starts at %d, want the earliest shard's %d", k, h.StartTimeMs(), s)
		}
	}
}

func TestMergeIntervalLogsRefuses(t *testing.T) {
	t.Parallel()
	vs := values(9, 100)
	one := func(tag string) []byte {
		return shardLog(t, startAt, 2, []string{tag}, func(int, string) []int64 { return vs })
	}
	huge, _ := result.EncodeHDR(hdrhistogram.New(1, math.MaxInt64, 5))
	crafted := append(one("get"), []byte("Tag=get,2.000,1.000,0.1,"+huge+"\n")...)
	for _, tc := range []struct {
		name string
		logs [][]byte
		want string
	}{
		{"other tags", [][]byte{one("get"), one("set")}, `s1.hlog: interval 1 is tagged "set", but in s0.hlog it is "get"`},
		{"a 47 MiB histogram", [][]byte{one("get"), crafted}, "s1.hlog:6: decode histogram: its header asks for 6160384 counts"},
		{"not a log", [][]byte{[]byte("hello\n")}, "s0.hlog"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var logs []*IntervalLogReader
			for i, b := range tc.logs {
				logs = append(logs, NewIntervalLogReader(fmt.Sprintf("s%d.hlog", i), bytes.NewReader(b)))
			}
			err := MergeIntervalLogs(&bytes.Buffer{}, logs)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
