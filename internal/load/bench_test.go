package load_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/load"
)

func noopWorker(context.Context, int, *rand.Rand) (load.Worker, error) {
	return load.WorkerFunc(func(context.Context) (load.Outcome, error) { return load.Outcome{}, nil }), nil
}

// BenchmarkClosedLoopOverhead is dbmeter's cost per operation against a
// target that does nothing: one worker, closed loop.
func BenchmarkClosedLoopOverhead(b *testing.B) {
	cfg := load.DefaultConfig()
	cfg.Warmup, cfg.Interval, cfg.Duration = 0, 0, 0
	for b.Loop() {
		cfg.Count = 1_000_000
		res, err := load.Run(context.Background(), cfg, []string{"noop"}, noopWorker, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Elapsed.Nanoseconds())/float64(res.Set[0].Ops), "ns/op-overhead")
	}
}

func BenchmarkRecord(b *testing.B) {
	r := hist.NewRecorder(1, false)
	b.ReportAllocs()
	var d time.Duration
	for b.Loop() {
		d++
		r.Record(0, d, d, 0, 0)
	}
}

func BenchmarkDrain(b *testing.B) {
	r := hist.NewRecorder(1, true)
	dst := hist.NewSet(1, true)
	b.ReportAllocs()
	for b.Loop() {
		for i := range 1000 {
			r.Record(0, time.Duration(i*1000), time.Duration(i*100), 0, 0)
		}
		r.Drain(dst)
	}
}

func BenchmarkScheduleConstant(b *testing.B) {
	s := load.NewSchedule(load.ArrivalConstant, 100_000, nil)
	for b.Loop() {
		s.Next()
	}
}

func BenchmarkSchedulePoisson(b *testing.B) {
	s := load.NewSchedule(load.ArrivalPoisson, 100_000, load.Rand(1, 1))
	for b.Loop() {
		s.Next()
	}
}
