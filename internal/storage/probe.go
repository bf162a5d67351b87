package storage

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// ProbeResult is what the device delivered to a process in the group for
// a short while at the start of a run: random direct 4 KiB reads, then
// 4 KiB writes each made durable before the next (O_DSYNC, as dd
// oflag=dsync), one at a time.
type ProbeResult struct {
	Method string `json:"method"`
	// ReadIOPS and WriteIOPS are the operations done over the time they took.
	ReadIOPS  float64 `json:"read_iops"`
	WriteIOPS float64 `json:"write_iops"`
	ReadOps   int     `json:"read_ops"`
	WriteOps  int     `json:"write_ops"`
	// Counted is what the group's counters saw during the probe, file
	// preparation included: the kernel's side of the same IOs.
	Counted *Counters `json:"counted,omitempty"`
}

const (
	probeBlock = 4096
	probeFile  = 4 << 20
)

// Probe measures the device under dir for about d, half reading and half
// writing, in a file it removes. g, when not nil, is the group the calling
// process is in, whose counters are recorded beside.
func Probe(ctx context.Context, dir string, d time.Duration, g *Group) (ProbeResult, error) {
	r := ProbeResult{Method: fmt.Sprintf("%d B random O_DIRECT reads of a %d MiB file, then %d B O_DSYNC writes, one at a time, %s each", probeBlock, probeFile>>20, probeBlock, d/2)}
	var before Counters
	if g != nil {
		c, err := g.Counters()
		if err != nil {
			return r, err
		}
		before = c
	}
	path := filepath.Join(dir, ".dbmeter-storage-probe")
	defer os.Remove(path)
	if err := prepare(path); err != nil {
		return r, fmt.Errorf("probe the device: %w", err)
	}
	var err error
	if r.ReadOps, r.ReadIOPS, err = probeReads(ctx, path, d/2); err != nil {
		return r, fmt.Errorf("probe the device's reads: %w", err)
	}
	if r.WriteOps, r.WriteIOPS, err = probeWrites(ctx, path, d/2); err != nil {
		return r, fmt.Errorf("probe the device's writes: %w", err)
	}
	if g != nil {
		after, err := g.Counters()
		if err != nil {
			return r, err
		}
		c := after.Sub(before)
		r.Counted = &c
	}
	return r, nil
}

// prepare writes the probe's file and makes it durable.
func prepare(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	for range probeFile / len(buf) {
		if _, err := f.Write(buf); err != nil {
			f.Close()
			return err
		}
	}
	return errors.Join(f.Sync(), f.Close())
}

// aligned returns a block-aligned buffer, as O_DIRECT needs.
func aligned() ([]byte, func(), error) {
	b, err := unix.Mmap(-1, 0, probeBlock, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { unix.Munmap(b) }, nil
}

func probeReads(ctx context.Context, path string, d time.Duration) (int, float64, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECT, 0)
	if err != nil {
		return 0, 0, err
	}
	defer unix.Close(fd)
	buf, free, err := aligned()
	if err != nil {
		return 0, 0, err
	}
	defer free()
	return timed(ctx, d, func() error {
		_, err := unix.Pread(fd, buf, int64(rand.IntN(probeFile/probeBlock))*probeBlock)
		return err
	})
}

func probeWrites(ctx context.Context, path string, d time.Duration) (int, float64, error) {
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_DSYNC, 0)
	if err != nil {
		return 0, 0, err
	}
	defer unix.Close(fd)
	buf := make([]byte, probeBlock)
	return timed(ctx, d, func() error {
		_, err := unix.Pwrite(fd, buf, int64(rand.IntN(probeFile/probeBlock))*probeBlock)
		return err
	})
}

// timed runs op one at a time for d (at least once) and returns how many
// ran and their rate.
func timed(ctx context.Context, d time.Duration, op func() error) (int, float64, error) {
	start := time.Now()
	n := 0
	for {
		if err := op(); err != nil {
			return n, 0, err
		}
		n++
		if el := time.Since(start); el >= d || ctx.Err() != nil {
			return n, float64(n) / el.Seconds(), nil
		}
	}
}
