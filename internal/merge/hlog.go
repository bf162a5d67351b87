package merge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/result"
)

// HdrHistogram interval logs (.hlog, the format of HdrHistogram's
// HistogramLogWriter, read by its HistogramLogProcessor and plotters) hold
// one histogram per progress interval, tagged by what it measured, with its
// start and length. A shard writes one with IntervalLogWriter; merge adds
// the shards' logs interval by interval, so the merged log's percentiles
// are exact for every interval. Logs are streamed: a 10-minute log of 64
// shards is never held in memory at once.

// IntervalLogWriter writes an interval log with hdrhistogram-go's writer.
type IntervalLogWriter struct {
	lw *hdrhistogram.HistogramLogWriter
}

// NewIntervalLogWriter writes the log's header to w: the format version,
// the start time and a legend.
func NewIntervalLogWriter(w io.Writer, start time.Time) (*IntervalLogWriter, error) {
	lw := hdrhistogram.NewHistogramLogWriter(w)
	startMs := start.UnixMilli()
	// The StartTime line holds whole seconds and readers add the relative
	// stamps to it, so the milliseconds go into the stamps.
	lw.SetBaseTime(startMs - startMs%1000)
	for _, err := range []error{lw.OutputLogFormatVersion(), lw.OutputStartTime(startMs), lw.OutputLegend()} {
		if err != nil {
			return nil, fmt.Errorf("write interval log: %w", err)
		}
	}
	return &IntervalLogWriter{lw: lw}, nil
}

// Write logs one interval: h with its tag, StartTimeMs and EndTimeMs
// (milliseconds since the epoch).
func (w *IntervalLogWriter) Write(h *hdrhistogram.Histogram) error {
	if err := w.lw.OutputIntervalHistogram(h); err != nil {
		return fmt.Errorf("write interval log: %w", err)
	}
	return nil
}

// IntervalLogReader reads an interval log with hdrhistogram-go's reader.
// Each histogram line is first checked as result.DecodeHDR checks a
// document's histograms, so a crafted log cannot make the reader allocate
// more than a dbmeter histogram needs.
type IntervalLogReader struct {
	name  string
	check *checkedLines
	lr    *hdrhistogram.HistogramLogReader
}

// NewIntervalLogReader reads the log r, called name in messages.
func NewIntervalLogReader(name string, r io.Reader) *IntervalLogReader {
	c := &checkedLines{name: name, sc: bufio.NewScanner(r)}
	c.sc.Buffer(nil, 16<<20)
	return &IntervalLogReader{name: name, check: c, lr: hdrhistogram.NewHistogramLogReader(c)}
}

// Next returns the next interval's histogram, or nil at the end of the log.
func (r *IntervalLogReader) Next() (*hdrhistogram.Histogram, error) {
	h, err := r.lr.NextIntervalHistogram()
	if err != nil {
		if r.check.err != nil {
			return nil, r.check.err
		}
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	if r.check.err != nil {
		return nil, r.check.err
	}
	return h, nil
}

// checkedLines passes a log through line by line, stopping at the first
// histogram line DecodeHDR refuses.
type checkedLines struct {
	name string
	sc   *bufio.Scanner
	n    int
	buf  []byte
	err  error
}

func (c *checkedLines) Read(p []byte) (int, error) {
	for len(c.buf) == 0 {
		if c.err != nil {
			return 0, io.EOF
		}
		if !c.sc.Scan() {
			if err := c.sc.Err(); err != nil {
				c.err = fmt.Errorf("%s: %w", c.name, err)
			}
			return 0, io.EOF
		}
		c.n++
		line := c.sc.Text()
		if line != "" && line[0] != '#' && line[0] != '"' {
			payload := line[strings.LastIndexByte(line, ',')+1:]
			if _, err := result.DecodeHDR(payload); err != nil {
				c.err = fmt.Errorf("%s:%d: %w", c.name, c.n, err)
				return 0, io.EOF
			}
		}
		c.buf = append(append(c.buf[:0], line...), '\n')
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}

// MergeIntervalLogs reads the interval logs of the shards of one test in
// step and writes their merge to w, as Merge adds intervals: the k-th
// histogram of every log (which must carry the same tag) into the k-th of
// the merged log, spanning from the earliest contributor's start to the
// latest one's end. A log that ends early contributes nothing after.
func MergeIntervalLogs(w io.Writer, logs []*IntervalLogReader) error {
	if len(logs) == 0 {
		return errors.New("no interval logs to merge")
	}
	var out *IntervalLogWriter
	live := len(logs)
	done := make([]bool, len(logs))
	for k := 1; live > 0; k++ {
		var sum *hdrhistogram.Histogram
		var from int
		for i, l := range logs {
			if done[i] {
				continue
			}
			h, err := l.Next()
			if err != nil {
				return err
			}
			if h == nil {
				done[i] = true
				live--
				continue
			}
			if sum == nil {
				sum, from = h, i
				continue
			}
			if h.Tag() != sum.Tag() {
				return fmt.Errorf("%s: interval %d is tagged %q, but in %s it is %q: not logs of one test", l.name, k, h.Tag(), logs[from].name, sum.Tag())
			}
			if dropped := sum.Merge(h); dropped > 0 {
				return fmt.Errorf("%s: interval %d: %d values outside the range of %s's histogram", l.name, k, dropped, logs[from].name)
			}
			sum.SetStartTimeMs(min(sum.StartTimeMs(), h.StartTimeMs()))
			sum.SetEndTimeMs(max(sum.EndTimeMs(), h.EndTimeMs()))
		}
		if sum == nil {
			break
		}
		if out == nil {
			var err error
			if out, err = NewIntervalLogWriter(w, time.UnixMilli(sum.StartTimeMs())); err != nil {
				return err
			}
		}
		if err := out.Write(sum); err != nil {
			return err
		}
	}
	if out == nil {
		return errors.New("the interval logs hold no histograms")
	}
	return nil
}

// MergeIntervalLogFiles merges the interval logs at paths into w.
func MergeIntervalLogFiles(w io.Writer, paths []string) error {
	logs := make([]*IntervalLogReader, len(paths))
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		logs[i] = NewIntervalLogReader(p, f)
	}
	return MergeIntervalLogs(w, logs)
}
