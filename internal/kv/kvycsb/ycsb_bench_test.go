package kvycsb

import (
	"context"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/ycsb"
)

// BenchmarkYCSBWorker is one worker's transactions on a btree:memory store
// of 100,000 records, without the runner: what dbmeter's YCSB code (the
// choosers, the keys, the records, the heat count) and the cheapest
// ordered engine cost per operation together.
func BenchmarkYCSBWorker(b *testing.B) {
	ctx := context.Background()
	for _, name := range []string{"a", "c", "e", "f"} {
		b.Run(name, func(b *testing.B) {
			e, err := engine.Lookup("btree:memory")
			if err != nil {
				b.Fatal(err)
			}
			s, err := e.Open(ctx, engine.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			const records = 100_000
			spec := DefaultSpec()
			if err := Preload(ctx, s, spec.Layout(), records, 1); err != nil {
				b.Fatal(err)
			}
			w, _ := ycsb.Lookup(name)
			y, err := NewWorkload(s, e.Name, w, spec, records, records)
			if err != nil {
				b.Fatal(err)
			}
			y.Measure(true)
			wk, _ := y.NewWorker(ctx, 0, load.Rand(1, 0))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := wk.Do(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
