package load_test

import (
	"context"
	"fmt"
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
// target that does nothing: one worker, closed loop. allocs/measured-op is
// what the runner allocated per operation inside the measured window: the
// per-operation path must not allocate.
func BenchmarkClosedLoopOverhead(b *testing.B) {
	cfg := load.DefaultConfig()
	cfg.Warmup, cfg.Interval, cfg.Duration = 0, 0, 0
	for b.Loop() {
		cfg.Count = 1_000_000
		res, err := load.Run(context.Background(), cfg, []string{"noop"}, noopWorker, nil)
		if err != nil {
			b.Fatal(err)
		}
		st := res.Stats(0)
		b.ReportMetric(float64(res.Elapsed.Nanoseconds())/float64(res.Set[0].Ops), "ns/op-overhead")
		b.ReportMetric(st.Client.AllocsPerOp, "allocs/measured-op")
	}
}

func BenchmarkRecord(b *testing.B) {
	r := hist.NewRecorder(1, hist.Kept{})
	b.ReportAllocs()
	var s hist.Sample
	for b.Loop() {
		s.Latency++
		r.Record(0, &s)
	}
}

func BenchmarkDrain(b *testing.B) {
	open := hist.Kept{Service: true, Lag: true}
	r := hist.NewRecorder(1, open)
	dst := hist.NewSet(1, open)
	b.ReportAllocs()
	for b.Loop() {
		for i := range 1000 {
			r.Record(0, &hist.Sample{Latency: int64(i * 1000), Service: int64(i * 100), Lag: int64(i)})
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

// BenchmarkOpenLoopCost is dbmeter's own CPU per arrival and its schedule
// lag in open loop against a target that does nothing, at 1,000/s and
// 100,000/s: what an open loop takes from a server on the same machine.
func BenchmarkOpenLoopCost(b *testing.B) {
	for _, rate := range []float64{1_000, 100_000} {
		b.Run(fmt.Sprintf("rate=%g", rate), func(b *testing.B) {
			cfg := load.DefaultConfig()
			cfg.Rate, cfg.Warmup, cfg.Interval, cfg.Duration = rate, 100*time.Millisecond, 0, time.Second
			b.ReportAllocs()
			for b.Loop() {
				res, err := load.Run(context.Background(), cfg, []string{"noop"}, noopWorker, nil)
				if err != nil {
					b.Fatal(err)
				}
				st := res.Stats(0)
				b.ReportMetric(st.Client.CPUS/st.DurationS, "cores")
				b.ReportMetric(float64(st.Lag.P99), "lag-p99-ns")
				b.ReportMetric(float64(st.Dropped), "dropped")
				b.ReportMetric(st.Client.AllocsPerOp, "allocs/measured-op")
			}
		})
	}
}
