package sysinfo

import (
	"io"
	"net"
	"runtime"
	"slices"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// The machine reference: four fixed micro-measurements, each repeated
// refReps times, about 30–60 ms together on a quiet 2-core machine (the
// fsync cost is the disk probe's, taken once at the start). Fixed work, not
// fixed time, so two results compare: each probe's figure is the time one
// repetition took.
const (
	refReps       = 7
	cpuLoopIters  = 2_000_000 // 4–6 ms: longer than a scheduler slice (EEVDF: 3 ms), so contention shows
	memcopyBytes  = 4 << 20   // bigger than most L2 caches
	loopbackTrips = 50
	timerSleep    = 200 * time.Microsecond
)

// referenceMethod says what each probe does, for the document.
func referenceMethod() map[string]string {
	return map[string]string{
		result.ProbeCPU: "2,000,000 rounds of an xorshift64 and multiply on one goroutine",
		"memcopy":       "copy of 4 MiB between two buffers",
		"loopback":      "50 round trips of 1 byte over a TCP connection on 127.0.0.1",
		"timer":         "one 200 µs sleep: how late the timer wakes the goroutine",
	}
}

// Reference takes the machine reference now and records it as the moment
// at ("start", "round 2", "end").
func (m *Monitor) Reference(at string) {
	p := result.ReferencePoint{At: at, TS: time.Since(m.begin).Seconds(), Probes: TakeReference()}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ref == nil {
		m.ref = &result.Reference{Method: referenceMethod()}
	}
	m.ref.Points = append(m.ref.Points, p)
}

// TakeReference runs the reference's probes once.
func TakeReference() []result.Probe {
	probes := []result.Probe{
		summarize(result.ProbeCPU, repeat(cpuLoop)),
		summarize("memcopy", repeat(memcopy())),
	}
	if d, err := loopback(); err == nil {
		probes = append(probes, summarize("loopback", d))
	}
	return append(probes, summarize("timer", repeat(timerWake)))
}

func repeat(f func() time.Duration) []time.Duration {
	d := make([]time.Duration, refReps)
	for i := range d {
		d[i] = f()
	}
	return d
}

// summarize is the median of ds and its spread: the second-fastest to
// the second-slowest over the median, so that one preemption does not
// make it.
func summarize(name string, ds []time.Duration) result.Probe {
	slices.Sort(ds)
	med := float64(ds[len(ds)/2])
	p := result.Probe{Name: name, MedianNs: med, N: len(ds)}
	if len(ds) >= 4 && med > 0 {
		p.Spread = float64(ds[len(ds)-2]-ds[1]) / med
	}
	return p
}

func cpuLoop() time.Duration {
	t := time.Now()
	x := uint64(88172645463325252)
	for range cpuLoopIters {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		x *= 2685821657736338717
	}
	d := time.Since(t)
	runtime.KeepAlive(x) // the loop must not be optimized away
	return d
}

func memcopy() func() time.Duration {
	src, dst := make([]byte, memcopyBytes), make([]byte, memcopyBytes)
	for i := range src {
		src[i] = byte(i)
	}
	copy(dst, src) // fault the pages in, untimed
	return func() time.Duration {
		t := time.Now()
		copy(dst, src)
		return time.Since(t)
	}
}

func timerWake() time.Duration {
	t := time.Now()
	time.Sleep(timerSleep)
	return time.Since(t)
}

// loopback times refReps × loopbackTrips 1-byte echoes over TCP on
// 127.0.0.1; each figure is one repetition's trips together.
func loopback() ([]time.Duration, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.Copy(c, c)
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	b := []byte{1}
	out := make([]time.Duration, 0, refReps)
	for range refReps {
		t := time.Now()
		for range loopbackTrips {
			if _, err := c.Write(b); err != nil {
				return nil, err
			}
			if _, err := io.ReadFull(c, b); err != nil {
				return nil, err
			}
		}
		out = append(out, time.Since(t))
	}
	return out, nil
}
