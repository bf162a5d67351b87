package kv

import (
	"context"
	"fmt"

	"github.com/dbmeter/dbmeter/internal/load"
)

// cellStore is the store one matrix cell measures, with what it holds.
type cellStore struct {
	e    Engine
	o    Options
	s    Store
	d    *Data
	seed uint64
}

// openCell opens e in o.Dir (a new, empty directory) and brings it to the
// state every cell starts from, whatever it measures next: the spec's
// preloaded keys, written in batches of 1,000 with the values seed draws;
// for an engine that keeps data, closed and reopened (so what it buffers
// in memory, a badger memtable, is written to its files), settled (an LSM
// tree flushed and compacted over the whole key range, with no background
// work left; see Settler) and every file fsynced, so no write-back of the
// preload lands in the measured window. None of it is timed.
func openCell(ctx context.Context, e Engine, o Options, spec Spec, seed uint64) (*cellStore, error) {
	s, err := e.Open(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	c := &cellStore{e: e, o: o, s: s, d: NewData(spec), seed: seed}
	if err := c.fill(ctx); err != nil {
		closeWithin(c.s, closeTimeout)
		return nil, err
	}
	return c, nil
}

// fill writes the preloaded keys (again, after a del round) and settles
// the store.
func (c *cellStore) fill(ctx context.Context) error {
	if err := c.d.Preload(ctx, c.s, c.seed); err != nil {
		return err
	}
	if !c.e.Persistent() {
		return nil
	}
	if err := closeWithin(c.s, closeTimeout); err != nil {
		return fmt.Errorf("close after the preload: %w", err)
	}
	s, err := c.e.Open(ctx, c.o)
	if err != nil {
		return fmt.Errorf("reopen after the preload: %w", err)
	}
	c.s = s
	if st, ok := s.(Settler); ok {
		if err := st.Settle(ctx); err != nil {
			return fmt.Errorf("settle after the preload: %w", err)
		}
	}
	if err := syncTree(c.o.Dir); err != nil {
		return fmt.Errorf("sync after the preload: %w", err)
	}
	return nil
}

// storeState is what a cell's store holds at one moment.
type storeState struct {
	keys  uint64 // Data.Held
	bytes int64  // on disk, under the engine's directory
}

func (c *cellStore) state() (storeState, error) {
	n, err := diskBytes(c.o.Dir)
	if err != nil {
		return storeState{}, fmt.Errorf("measure the store's size: %w", err)
	}
	return storeState{keys: c.d.Held, bytes: n}, nil
}

// record adds the state to a run's extra figures, as keys_WHEN and
// disk_bytes_WHEN.
func (st storeState) record(extra map[string]float64, when string) {
	extra["keys_"+when] = float64(st.keys)
	extra["disk_bytes_"+when] = float64(st.bytes)
}

// firstDelRound is how many keys per worker the first del round deletes,
// before the cell knows the engine's rate: few enough to be quick on an
// engine that fsyncs every delete.
const firstDelRound = 100

// delRounds runs del for cfg's measured window, or cfg.Count deletes, in
// rounds. A del run cannot simply last a window: it deletes keys that run
// out (20,000 keys last a memory engine about 10 ms). So each round is a
// count run over the keys left, sized by the last round's rate to fill the
// time left; when fewer keys than workers are left, the keys are written
// back and the store settled again, untimed (fill), so every round starts
// where every cell starts. The rounds join into one result: their
// histograms added, their windows one after the other. It returns the
// number of rounds.
func (c *cellStore) delRounds(ctx context.Context, w *delWorkload, cfg load.Config, watch load.Watcher) (*load.Result, int, error) {
	workers := uint64(cfg.Workers)
	n := min(w.left(), firstDelRound*workers)
	if cfg.Count > 0 {
		n = uint64(cfg.Count)
	}
	var res *load.Result
	rounds := 0
	for {
		if w.left() < workers {
			if err := c.fill(ctx); err != nil {
				return nil, rounds, fmt.Errorf("put the deleted keys back: %w", err)
			}
			w.s = c.s // fill reopened the store
			w.refilled()
		}
		n = max(min(n, w.left()), workers)
		rc := cfg
		rc.Duration, rc.Warmup, rc.Count = 0, 0, int64(n)
		one, err := load.Run(ctx, rc, w.Ops(), w.NewWorker, watch)
		if err != nil {
			return nil, rounds, err
		}
		w.End()
		rounds++
		if res == nil {
			res = one
		} else {
			res.Join(one)
		}
		t := one.Set.Total()
		if t.Ops == 0 || one.Interrupted || ctx.Err() != nil {
			return res, rounds, nil // nothing more to learn: every delete failed, or the run was stopped
		}
		if cfg.Count > 0 {
			done := uint64(res.Set.Total().Ops + res.Set.Total().Errors)
			if done >= uint64(cfg.Count) {
				return res, rounds, nil
			}
			n = uint64(cfg.Count) - done
			continue
		}
		if res.Elapsed >= cfg.Duration {
			return res, rounds, nil
		}
		rate := float64(t.Ops) / max(one.Elapsed.Seconds(), 1e-9)
		n = uint64(rate*(cfg.Duration-res.Elapsed).Seconds()) + 1
	}
}
