package workload

import (
	"context"
	"math/rand/v2"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/load"
)

// batchsetWorkload writes fresh keys Batch at a time through the engine's
// batch API: one operation is one committed batch, and Outcome.Rows counts
// its keys, so the result gives both batches and keys per second.
type batchsetWorkload struct {
	s     engine.Store
	fresh *freshKeys
}

// NewBatchSet returns the batchset workload over s. Call End after the run.
func NewBatchSet(s engine.Store, d *Data, cfg load.Config) *batchsetWorkload {
	return &batchsetWorkload{s: s, fresh: newFreshKeys(d, stripesFor(cfg))}
}

func (w *batchsetWorkload) Ops() []string { return []string{"batchset"} }

func (w *batchsetWorkload) NewWorker(_ context.Context, id int, rng *rand.Rand) (load.Worker, error) {
	d := w.fresh.data
	b := &batcher{setter: setter{s: w.s, fresh: w.fresh, id: id}}
	b.keys = make([][]byte, d.Batch)
	b.vals = make([][]byte, d.Batch)
	for i := range b.keys {
		b.keys[i] = make([]byte, d.KeySize)
		b.vals[i] = newValue(rng, d.ValueSize)
	}
	return b, nil
}

// End records the keys written.
func (w *batchsetWorkload) End() { w.fresh.End() }

type batcher struct {
	setter     // k counts keys written; Close reports them
	keys, vals [][]byte
}

func (b *batcher) Do(context.Context) (load.Outcome, error) {
	var bytes int64
	for j := range b.keys {
		i, err := b.fresh.index(b.id, b.k+uint64(j))
		if err != nil {
			return load.Outcome{}, err
		}
		putKey(b.keys[j], i)
		stamp(b.vals[j], i)
		bytes += int64(len(b.keys[j]) + len(b.vals[j]))
	}
	if err := engine.SetBatch(b.s, b.keys, b.vals); err != nil {
		return load.Outcome{}, err
	}
	b.k += uint64(len(b.keys))
	return load.Outcome{Rows: int64(len(b.keys)), Bytes: bytes}, nil
}
