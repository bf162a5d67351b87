package merge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/usage"
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
// Each histogram line's header is first checked as result.DecodeHDR checks
// a document's histograms, so a crafted log cannot make the reader allocate
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
			if err := result.CheckHDR(payload); err != nil {
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
//
// Decoding dominates (hdrhistogram-go's reader decodes every histogram
// densely and scans it for its range), so each core reads and adds a share
// of the logs, and the shares' sums are added at the end of each interval.
func MergeIntervalLogs(w io.Writer, logs []*IntervalLogReader) error {
	if len(logs) == 0 {
		return errors.New("no interval logs to merge")
	}
	workers := min(runtime.GOMAXPROCS(0), len(logs))
	done := make([]bool, len(logs))
	tags := make([]string, len(logs))
	parts := make([]share, workers)
	var out *IntervalLogWriter
	for k := 1; ; k++ {
		var wg sync.WaitGroup
		for p := range parts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				parts[p] = readShare(logs, done, tags, k, p, workers)
			}()
		}
		wg.Wait()
		var sum *hdrhistogram.Histogram
		first := -1
		for p := range parts {
			if parts[p].err != nil {
				return parts[p].err
			}
		}
		for i := range logs {
			if tags[i] == ended {
				continue // no interval k
			}
			if first < 0 {
				first = i
			} else if tags[i] != tags[first] {
				return fmt.Errorf("%s: interval %d is tagged %q, but in %s it is %q: not logs of one test", logs[i].name, k, tags[i], logs[first].name, tags[first])
			}
		}
		for p := range parts {
			h := parts[p].sum
			if h == nil {
				continue
			}
			var dropped int64
			if sum, dropped = hist.Add(sum, h); dropped > 0 {
				return fmt.Errorf("%s: interval %d: %d values outside the range of %s's histogram", logs[parts[p].first].name, k, dropped, logs[first].name)
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

// share is one core's part of an interval: the sum of its logs' k-th
// histograms.
type share struct {
	sum   *hdrhistogram.Histogram
	first int // the log whose histogram sum started as
	err   error
}

// ended is the tag readShare records for a log that has no interval k;
// the log writer refuses tags with control characters.
const ended = "\x00"

// readShare reads interval k of logs p, p+n, p+2n, ..., recording each
// one's tag in tags (ended when it has none) and adding them up.
func readShare(logs []*IntervalLogReader, done []bool, tags []string, k, p, n int) share {
	var s share
	for i := p; i < len(logs); i += n {
		tags[i] = ended
		if done[i] {
			continue
		}
		h, err := logs[i].Next()
		if err != nil {
			return share{err: err}
		}
		if h == nil {
			done[i] = true
			continue
		}
		tags[i] = h.Tag()
		if s.sum == nil {
			s.first = i
		}
		var dropped int64
		if s.sum, dropped = hist.Add(s.sum, h); dropped > 0 {
			return share{err: fmt.Errorf("%s: interval %d: %d values outside the range of %s's histogram", logs[i].name, k, dropped, logs[s.first].name)}
		}
		s.sum.SetStartTimeMs(min(s.sum.StartTimeMs(), h.StartTimeMs()))
		s.sum.SetEndTimeMs(max(s.sum.EndTimeMs(), h.EndTimeMs()))
	}
	return s
}

// MergeIntervalLogFiles merges the interval logs at paths into w. The logs
// are the user's input, so every error is a usage error.
func MergeIntervalLogFiles(w io.Writer, paths []string) error {
	logs := make([]*IntervalLogReader, len(paths))
	for i, p := range paths {
		f, err := result.OpenInput(p)
		if err != nil {
			return err
		}
		defer f.Close()
		logs[i] = NewIntervalLogReader(p, f)
	}
	return usage.Wrap(MergeIntervalLogs(w, logs))
}

// ReadArgs sorts merge's arguments into shard documents, which it reads,
// and their interval logs (*.hlog): one log per document when hdrLog, the
// merged log's path, is given, none otherwise.
func ReadArgs(args []string, hdrLog string) ([]Input, []string, error) {
	var docs, hlogs []string
	for _, a := range args {
		if strings.HasSuffix(a, ".hlog") {
			hlogs = append(hlogs, a)
		} else {
			docs = append(docs, a)
		}
	}
	if (len(hlogs) > 0 || hdrLog != "") && (hdrLog == "" || len(hlogs) != len(docs)) {
		return nil, nil, usage.Errorf("give one interval log (*.hlog) per shard document and {HDRLog} OUT.hlog for their merge")
	}
	ins := make([]Input, 0, len(docs))
	for _, p := range docs {
		in, err := ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		ins = append(ins, in)
	}
	return ins, hlogs, nil
}
