package kv

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// cellStore is the store one matrix cell measures, with what it holds.
type cellStore struct {
	e engine.Engine
	o engine.Options
	s engine.Store
	d *workload.Data
	// template is the directory the store was copied from; "" for a
	// memory engine, preloaded afresh.
	template string
	seed     uint64
}

// openCell opens e in o.Dir (a new, empty directory) and brings it to the
// state every cell starts from, whatever it measures next: the spec's
// preloaded keys, written in batches of 1,000 with the values seed draws;
// for an engine that keeps data, settled (an LSM tree flushed and compacted
// over the whole key range, with no background work left; see Settler),
// closed and reopened (so what an engine buffers in memory, a badger
// memtable, is in its files), settled again and every file fsynced, so no
// write-back of the preload lands in the measured window. None of it is
// timed.
func openCell(ctx context.Context, e engine.Engine, o engine.Options, spec workload.Spec, seed uint64) (*cellStore, error) {
	s, err := e.Open(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	c := &cellStore{e: e, o: o, s: s, d: workload.NewData(spec), seed: seed}
	if err := c.fill(ctx); err != nil {
		closeWithin(c.s, closeTimeout)
		return nil, err
	}
	return c, nil
}

// fill writes the preloaded keys and settles the store.
func (c *cellStore) fill(ctx context.Context) error {
	if err := c.d.Preload(ctx, c.s, c.seed); err != nil {
		return err
	}
	if !c.e.Persistent() {
		return nil
	}
	if err := settle(ctx, c.s); err != nil {
		return err
	}
	if err := closeWithin(c.s, closeTimeout); err != nil {
		return fmt.Errorf("close after the preload: %w", err)
	}
	s, err := c.e.Open(ctx, c.o)
	if err != nil {
		return fmt.Errorf("reopen after the preload: %w", err)
	}
	c.s = s
	if err := settle(ctx, s); err != nil {
		return err
	}
	if err := syncTree(c.o.Dir); err != nil {
		return fmt.Errorf("sync after the preload: %w", err)
	}
	return nil
}

func settle(ctx context.Context, s engine.Store) error {
	if st, ok := s.(engine.Settler); ok {
		if err := st.Settle(ctx); err != nil {
			return fmt.Errorf("settle after the preload: %w", err)
		}
	}
	return nil
}

// copyCell opens a copy of template, a store openCell made and closed,
// in o.Dir: the same start state for the cost of a copy instead of a
// preload. The copy is fsynced; the files the engine never changes are
// links to the template's (Engine.Immutable), the rest copies.
func copyCell(ctx context.Context, e engine.Engine, o engine.Options, spec workload.Spec, template string) (*cellStore, error) {
	if err := copyTree(template, o.Dir, e.NeverChanges); err != nil {
		return nil, fmt.Errorf("copy the preloaded store: %w", err)
	}
	s, err := e.Open(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	d := workload.NewData(spec)
	d.Preloaded, d.Held = uint64(spec.Keys), uint64(spec.Keys)
	return &cellStore{e: e, o: o, s: s, d: d, template: template}, nil
}

// refill puts the store back in its start state after del took keys off:
// a fresh copy of the template, or for a memory engine the preload again.
func (c *cellStore) refill(ctx context.Context) error {
	if c.template == "" {
		return c.fill(ctx)
	}
	if err := closeWithin(c.s, closeTimeout); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	if err := emptyDir(c.o.Dir); err != nil {
		return err
	}
	fresh, err := copyCell(ctx, c.e, c.o, c.d.Spec, c.template)
	if err != nil {
		return err
	}
	c.s, c.d.Held = fresh.s, fresh.d.Held
	return nil
}

// templates holds, per engine that keeps data and fsync mode, a
// preloaded, settled and closed store that its cells copy, under root:
// every cell and repetition of the engine starts from the same bytes.
type templates struct {
	root string
	dirs map[templateKey]string
}

type templateKey struct {
	engine string
	sync   bool
}

// get returns the template for e in mode o.Sync, making it the first time
// with the values seed draws.
func (t *templates) get(ctx context.Context, e engine.Engine, o engine.Options, spec workload.Spec, seed uint64) (string, error) {
	k := templateKey{e.Name, o.Sync}
	if dir, ok := t.dirs[k]; ok {
		return dir, nil
	}
	dir, err := os.MkdirTemp(t.root, "template-"+dirPattern(e.Name))
	if err != nil {
		return "", fmt.Errorf("make directory for the preloaded %s store: %w", e.Name, err)
	}
	o.Dir = dir
	c, err := openCell(ctx, e, o, spec, seed)
	if err == nil {
		err = closeWithin(c.s, closeTimeout)
	}
	if err != nil {
		return "", errors.Join(err, os.RemoveAll(dir))
	}
	if t.dirs == nil {
		t.dirs = map[templateKey]string{}
	}
	t.dirs[k] = dir
	return dir, nil
}

// drop removes the templates of engine in one fsync mode.
func (t *templates) drop(engine string, sync bool) error {
	var errs []error
	for k, dir := range t.dirs {
		if k.engine == engine && k.sync == sync {
			errs = append(errs, os.RemoveAll(dir))
			delete(t.dirs, k)
		}
	}
	return errors.Join(errs...)
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
func (st storeState) record(r *result.Run, when string) {
	x := FigureDeclarations()
	x.Set(r, "keys_"+when, float64(st.keys))
	x.Set(r, "disk_bytes_"+when, float64(st.bytes))
}

// firstDelRound is how many keys per worker the first del round deletes,
// before the cell knows the engine's rate: one, since a durable delete can
// take a second (cznic/kv's group commit), and a first round of 100 made
// such a cell's 100 ms window last 100 s. The rounds after it are sized by
// the rate it found.
const firstDelRound = 1

// delRounds runs del for cfg's measured window, or cfg.Count deletes, in
// rounds. A del run cannot simply last a window: it deletes keys that run
// out (20,000 keys last a memory engine about 10 ms). So each round is a
// count run over the keys left, sized by the last round's rate to fill the
// time left; when fewer keys than workers are left, the keys are written
// back, untimed (refill), so every round starts
// where every cell starts. The rounds join into one result: their
// histograms added, their windows one after the other. It returns the
// number of rounds.
func (c *cellStore) delRounds(ctx context.Context, w *workload.Del, cfg load.Config, watch load.Watcher) (*load.Result, int, error) {
	workers := uint64(cfg.Workers)
	n := min(w.Left(), firstDelRound*workers)
	if cfg.Count > 0 {
		n = uint64(cfg.Count)
	}
	var res *load.Result
	rounds := 0
	for {
		if w.Left() < workers {
			if err := c.refill(ctx); err != nil {
				return nil, rounds, fmt.Errorf("put the deleted keys back: %w", err)
			}
			w.Refilled(c.s) // fill reopened the store
		}
		n = max(min(n, w.Left()), workers)
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
