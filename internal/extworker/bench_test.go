package extworker

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkRoundTrip is the protocol's own cost: one empty exchange (ping
// and reply) with a worker, over real pipes. ns/op is the round trip;
// dbmeter-cpu-ns/op is dbmeter's own CPU for it (the worker's excluded), the
// figure to set beside the Go null target's.
func BenchmarkRoundTrip(b *testing.B) {
	workers := map[string][]string{"go": spec(b, "ok").Argv}
	for lang, w := range map[string][]string{"php": {"php", "../../workers/php/minimal.php"}, "python": {"python3", "../../workers/python/minimal.py"}} {
		if _, err := exec.LookPath(w[0]); err == nil {
			path, _ := filepath.Abs(w[1])
			workers[lang] = []string{w[0], path}
		}
	}
	for lang, argv := range workers {
		b.Run(lang, func(b *testing.B) {
			s := spec(b, "ok")
			s.Argv = argv
			w, err := Start(context.Background(), s, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			ctx := context.Background()
			cpu0 := selfCPU(b)
			b.ResetTimer()
			for b.Loop() {
				if err := w.Ping(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(selfCPU(b)-cpu0)/float64(b.N), "dbmeter-cpu-ns/op")
		})
	}
}

func selfCPU(b *testing.B) int64 {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
