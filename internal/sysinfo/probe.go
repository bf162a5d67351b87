package sysinfo

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"github.com/dbmeter/dbmeter/internal/result"
)

// The probe's shape is pg_test_fsync's: blocks of XLOG_BLCKSZ (8 KiB)
// written over the same offset of a preallocated file, each followed by
// fdatasync, so every operation pays for one flush of data to stable
// storage and nothing else (no file growth, no metadata). The budget keeps
// a slow disk (a 7,200 rpm drive does about 120 a second) from holding up
// the run.
//
// It runs for at least probeMinTime, however fast the disk: a block IO
// throttle (cgroup blkio, a cloud disk's IOPS limit) grants each of its
// slices (blk-throttle's are 100 ms) an allowance that passes at the
// device's speed, then holds the next IO to the slice's end. A probe that
// ends inside the first slice never pays the limit that a run's synced
// writes, for seconds, pay all along. What it pays shows in its rate
// (ops_s), the time per durable write with the waits in it; not in its
// p50, which is the allowance's (measured on this project's VM, busy: at
// 150 write IOs/s p50 0.95 ms and 64 fsyncs/s, unthrottled 0.28 ms and
// 754/s).
const (
	probeBlock   = 8192
	probeOps     = 200
	probeMinTime = 200 * time.Millisecond // two of blk-throttle's slices
	probeBudget  = time.Second
)

// ProbeFsync measures what one durable write costs in dir. It writes, and
// removes, one small hidden file there. It never fails the run: a probe
// that cannot run says why in Error.
func ProbeFsync(dir string) *result.FsyncProbe {
	p, err := probeFsync(dir, probeOps, probeMinTime, probeBudget)
	if err != nil {
		return &result.FsyncProbe{Method: probeMethod(probeBlock), WriteBytes: probeBlock, Error: err.Error()}
	}
	return p
}

func probeMethod(block int) string {
	return fmt.Sprintf("write %d B at offset 0 + fdatasync, pg_test_fsync style", block)
}

// probeFsync times write+fdatasync pairs until it has done ops of them
// and minTime has passed, stopping early once budget has passed (after at
// least one).
func probeFsync(dir string, ops int, minTime, budget time.Duration) (p *result.FsyncProbe, err error) {
	f, err := os.CreateTemp(dir, ".dbmeter-fsync-probe-")
	if err != nil {
		return nil, fmt.Errorf("fsync probe: %w", err)
	}
	defer func() {
		cerr := f.Close()
		rerr := os.Remove(f.Name())
		if err == nil {
			if err = errors.Join(cerr, rerr); err != nil {
				err = fmt.Errorf("fsync probe: %w", err)
			}
		}
	}()
	buf := make([]byte, probeBlock)
	for i := range buf {
		buf[i] = byte(i) // not zeros: no filesystem may elide the write
	}
	// Allocate the block and flush it once, untimed, so the timed
	// fdatasyncs have no size or block allocation to commit.
	if _, err := f.WriteAt(buf, 0); err != nil {
		return nil, fmt.Errorf("fsync probe: %w", err)
	}
	if err := f.Sync(); err != nil {
		return nil, fmt.Errorf("fsync probe: %w", err)
	}
	fd := int(f.Fd())
	lat := make([]time.Duration, 0, ops)
	start := time.Now()
	for len(lat) < ops || time.Since(start) < minTime {
		t0 := time.Now()
		if _, err := f.WriteAt(buf, 0); err != nil {
			return nil, fmt.Errorf("fsync probe: %w", err)
		}
		if err := unix.Fdatasync(fd); err != nil {
			return nil, fmt.Errorf("fsync probe: fdatasync %s: %w", f.Name(), err)
		}
		lat = append(lat, time.Since(t0))
		if time.Since(start) >= budget {
			break
		}
	}
	elapsed := time.Since(start)
	slices.Sort(lat)
	return &result.FsyncProbe{
		Method:     probeMethod(probeBlock),
		WriteBytes: probeBlock,
		Ops:        len(lat),
		P50Ns:      rank(lat, 0.50).Nanoseconds(),
		P99Ns:      rank(lat, 0.99).Nanoseconds(),
		MinNs:      lat[0].Nanoseconds(),
		MaxNs:      lat[len(lat)-1].Nanoseconds(),
		OpsPerS:    float64(len(lat)) / elapsed.Seconds(),
	}, nil
}

// rank is the nearest-rank q-quantile of sorted, which must not be empty.
func rank(sorted []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
