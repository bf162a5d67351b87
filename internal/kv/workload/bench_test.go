package workload_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
)

// The map:memory get pair is the overhead check of issue 3: the same gets
// on the same preloaded store, with the same key choice, driven once by
// dbmeter (load.Run, one closed-loop worker, histograms and all) and once
// by a bare loop. dbmeter must reach at least 80 % of the bare loop's rate.
// The store holds workload.DefaultKeys keys, as `dbmeter kv` does by default.

func preloadedMapMemory(b *testing.B) (engine.Store, *workload.Data) {
	b.Helper()
	e, err := engine.Lookup("map:memory")
	if err != nil {
		b.Fatal(err)
	}
	s, err := e.Open(context.Background(), engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	d := workload.NewData(workload.DefaultSpec())
	if err := d.Preload(context.Background(), s, 1); err != nil {
		b.Fatal(err)
	}
	return s, d
}

// runGets drives n gets through dbmeter and returns the measured window.
func runGets(b *testing.B, s engine.Store, d *workload.Data, n int) time.Duration {
	w, err := workload.NewGet(s, d)
	if err != nil {
		b.Fatal(err)
	}
	cfg := load.DefaultConfig()
	cfg.Warmup, cfg.Interval, cfg.Duration = 0, 0, 0
	cfg.Count = int64(n)
	cfg.InProcessTarget = true
	res, err := load.Run(context.Background(), cfg, w.Ops(), w.NewWorker, nil)
	if err != nil {
		b.Fatal(err)
	}
	if st := res.Stats(0); st.Errors > 0 || st.Ops != int64(n) {
		b.Fatalf("ran %d gets with %d errors, want %d without errors", st.Ops, st.Errors, n)
	}
	return res.Elapsed
}

// bareGets does n gets in a plain loop, choosing keys as the get workload
// does: uniform over the preloaded keys from a PCG stream, zero-padded
// decimal keys.
func bareGets(b *testing.B, s engine.Store, rng *rand.Rand, n int) {
	key := make([]byte, workload.DefaultKeySize)
	dst := make([]byte, 0, workload.DefaultValueSize)
	for range n {
		i := rng.Uint64N(workload.DefaultKeys)
		for j := len(key) - 1; j >= 0; j-- {
			key[j] = byte('0' + i%10)
			i /= 10
		}
		v, err := s.Get(key, dst)
		if err != nil {
			b.Fatal(err)
		}
		dst = v[:0]
	}
}

func BenchmarkMapMemoryGet(b *testing.B) {
	b.Run("dbmeter", func(b *testing.B) {
		s, d := preloadedMapMemory(b)
		b.ReportAllocs()
		b.ResetTimer()
		runGets(b, s, d, b.N)
	})
	b.Run("bare", func(b *testing.B) {
		s, _ := preloadedMapMemory(b)
		rng := load.Rand(1, 0)
		b.ReportAllocs()
		b.ResetTimer()
		bareGets(b, s, rng, b.N)
	})
}

// BenchmarkMapMemoryGetPair alternates the two in chunks of 100,000 gets,
// so that on a shared machine both see the same noise, and reports
// dbmeter's rate as a percentage of the bare loop's.
func BenchmarkMapMemoryGetPair(b *testing.B) {
	const chunk = 100_000
	s, d := preloadedMapMemory(b)
	rng := load.Rand(1, 0)
	var inDbmeter, inBare time.Duration
	for b.Loop() {
		inDbmeter += runGets(b, s, d, chunk)
		start := time.Now()
		bareGets(b, s, rng, chunk)
		inBare += time.Since(start)
	}
	b.ReportMetric(float64(inDbmeter.Nanoseconds())/float64(b.N*chunk), "ns/get-dbmeter")
	b.ReportMetric(float64(inBare.Nanoseconds())/float64(b.N*chunk), "ns/get-bare")
	b.ReportMetric(100*inBare.Seconds()/inDbmeter.Seconds(), "%-of-bare")
}
