// Package hlog writes each interval's latency histograms to an HdrHistogram
// interval log (.hlog), the format wrk2, cassandra-stress and HdrHistogram's
// own HistogramLogAnalyzer read and write, so that the intervals of shards
// run on many machines can be merged exactly, slot by slot.
package hlog

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Writer writes interval histograms, one line per operation and interval,
// tagged "target/workload/operation". Times are seconds since the log's
// start. It is safe for the watchers of several runs one after another.
type Writer struct {
	mu  sync.Mutex
	lw  *hdrhistogram.HistogramLogWriter
	err error
}

// NewWriter starts a log whose times count from start.
func NewWriter(w io.Writer, start time.Time) (*Writer, error) {
	lw := hdrhistogram.NewHistogramLogWriter(w)
	ms := start.UnixMilli()
	lw.SetBaseTime(ms)
	for _, f := range []func() error{
		lw.OutputLogFormatVersion,
		func() error {
			return lw.OutputComment("written by dbmeter: latency from each operation's intended start, in ns")
		},
		func() error { return lw.OutputStartTime(ms) },
		func() error { return lw.OutputBaseTime(ms) },
		lw.OutputLegend,
	} {
		if err := f(); err != nil {
			return nil, fmt.Errorf("write hdr log header: %w", err)
		}
	}
	return &Writer{lw: lw}, nil
}

// Err is the first write error, if any.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Watcher returns a load.Watcher that logs the intervals of one run; ops
// names the run's operations in the order of load.Tick.Ops.
func (w *Writer) Watcher(target, workload string, ops []string) load.Watcher {
	return &watcher{w: w, prefix: Tag(target) + "/" + Tag(workload) + "/", ops: ops}
}

// Tag makes s usable in a tag, which may hold no comma, space or line break.
func Tag(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ',', ' ', '\r', '\n', '\t':
			return '_'
		}
		return r
	}, s)
}

type watcher struct {
	w      *Writer
	prefix string
	ops    []string
}

func (x *watcher) Tick(t load.Tick) {
	x.w.mu.Lock()
	defer x.w.mu.Unlock()
	if x.w.err != nil {
		return
	}
	end := t.End.UnixMilli()
	start := end - int64(t.Seconds*1000+0.5)
	for i := range t.Ops {
		h := t.Ops[i].Latency
		if h.TotalCount() == 0 {
			continue
		}
		name := fmt.Sprint(i)
		if i < len(x.ops) {
			name = Tag(x.ops[i])
		}
		h.SetTag(x.prefix + name)
		h.SetStartTimeMs(start)
		h.SetEndTimeMs(end)
		x.w.err = x.w.lw.OutputIntervalHistogram(h)
		h.SetTag("")
		if x.w.err != nil {
			return
		}
	}
}
