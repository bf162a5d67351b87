package pg

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/load"
)

// Progress prints pgbench's -P line for each interval of a run; it is a
// load.Watcher.
type Progress struct {
	w       io.Writer
	stamp   bool // --progress-timestamp
	suffix  string
	rate    bool
	scratch *hdrhistogram.Histogram
	service *hdrhistogram.Histogram
}

// NewProgress prints to w, ending each line with suffix (the target when
// several run); rate adds -R's lag and skipped figures, stamp starts lines
// with the Unix time (--progress-timestamp).
func NewProgress(w io.Writer, suffix string, rate, stamp bool) *Progress {
	return &Progress{w: w, suffix: suffix, rate: rate, stamp: stamp, scratch: hist.New(), service: hist.New()}
}

// Tick prints one line.
func (p *Progress) Tick(t load.Tick) {
	p.scratch.Reset()
	p.service.Reset()
	for i := range t.Ops {
		p.scratch.Merge(t.Ops[i].Latency)
		if t.Ops[i].Service != nil {
			p.service.Merge(t.Ops[i].Service)
		}
	}
	iv := t.Interval
	tps := 0.0
	if t.Seconds > 0 {
		tps = float64(iv.Ops) / t.Seconds
	}
	when := fmt.Sprintf("%.1f s", iv.TS)
	if p.stamp {
		when = fmt.Sprintf("%.3f s", float64(time.Now().UnixMicro())/1e6)
	}
	line := fmt.Sprintf("progress: %s, %.1f tps, lat %.3f ms stddev %.3f, %d failed",
		when, tps, p.scratch.Mean()/1e6, stddev(p.scratch)/1e6, iv.Errors)
	if p.rate {
		line += fmt.Sprintf(", lag %.3f ms", math.Max(p.scratch.Mean()-p.service.Mean(), 0)/1e6)
		line += fmt.Sprintf(", %d skipped", iv.Dropped)
	}
	fmt.Fprintln(p.w, line+p.suffix)
}

func stddev(h *hdrhistogram.Histogram) float64 {
	if h.TotalCount() == 0 {
		return 0
	}
	return h.StdDev()
}
