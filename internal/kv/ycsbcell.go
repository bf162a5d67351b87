package kv

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/kvycsb"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/ycsb"
)

// ycsbCell runs the YCSB operation op on engine e, on a store of its own
// (a directory made, opened, loaded, run, closed and removed), so that no
// workload sees another's inserts or updates, and returns its runs.
func (m *Matrix) ycsbCell(ctx context.Context, e engine.Engine, sync bool, op string, r plan.Rep) (runs []result.Run, err error) {
	knobs, err := e.ResolveParams(m.Params[e.Name])
	if err != nil {
		return nil, err
	}
	add := func(run result.Run) { runs = append(runs, run) }
	cfg := m.Load
	cfg.Seed = r.Seed
	cfg.InProcessTarget = true
	params := m.params(e, knobs, sync)
	params["record_bytes"] = strconv.Itoa(m.YCSB.Record.Size())
	base := result.Run{Family: "kv", Target: e.Name, Workload: op, Params: params, Repeat: r.N}
	err = withFreshStore(ctx, m.Dir, e, engine.Options{Sync: sync, Params: m.Params[e.Name]}, func(s engine.Store) error {
		if op == kvycsb.LoadOp {
			return m.ycsbLoad(ctx, s, cfg, base, r, add)
		}
		return m.ycsbRun(ctx, s, e.Name, op, cfg, base, r, add)
	})
	return runs, err
}

// ycsbLoad times the load phase: every record inserted once, one at a
// time, by all the workers.
func (m *Matrix) ycsbLoad(ctx context.Context, s engine.Store, cfg load.Config, run result.Run, r plan.Rep, add func(result.Run)) error {
	n := int64(m.Spec.Keys)
	l := kvycsb.NewLoad(s, m.YCSB.Layout(), n)
	cfg.Duration, cfg.Warmup, cfg.Count = 0, 0, n
	run.Params["duration"], run.Params["warmup"], run.Params["count"] = "0s", "0s", strconv.FormatInt(n, 10)
	run.Params[result.SettingPreloadedKeys] = "0"
	res, err := load.Run(ctx, cfg, l.Ops(), l.NewWorker, r.WatchAs(run.Workload, l.Ops()...))
	if err != nil {
		return err
	}
	add(res.Fill(run, cfg, 0))
	return nil
}

// ycsbRun loads the records (untimed, in batches) and runs the workload.
// It adds the cell's run (every operation of the mix) with its
// hottest_1pct_share, then one run per operation of the mix, named
// ycsb-x/read and so on. A scanning workload on an engine that cannot scan
// adds a run marked not supported, with no operations, and is no error.
func (m *Matrix) ycsbRun(ctx context.Context, s engine.Store, name, op string, cfg load.Config, run result.Run, r plan.Rep, add func(result.Run)) error {
	w, err := ycsb.Lookup(strings.TrimPrefix(op, "ycsb-"))
	if err != nil {
		return err
	}
	records := int64(m.Spec.Keys)
	// YCSB sizes the inserts it expects by operationcount; a timed run has
	// none, and YCSB's workload files set it equal to recordcount.
	opCount := records
	if cfg.Count > 0 {
		opCount = cfg.Count
	}
	y, err := kvycsb.NewWorkload(s, name, w, m.YCSB, records, opCount)
	if errors.Is(err, engine.ErrNoOrder) {
		add(notSupported(run, cfg, err))
		return nil
	}
	if err != nil {
		return err
	}
	run.Params[result.SettingPreloadedKeys] = strconv.FormatInt(records, 10)
	run.Params["request_distribution"] = y.Distribution()
	run.Params["expected_new_keys"] = strconv.FormatInt(w.ExpectedNewKeys(opCount), 10)
	if err := kvycsb.Preload(ctx, s, m.YCSB.Layout(), records, cfg.Seed); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	// Without a warm-up every operation is measured: counting from the
	// first, rather than from when the runner gets to OnMeasure, keeps the
	// figure the same for the same seed.
	y.Measure(cfg.Warmup == 0)
	cfg.OnMeasure = func() { y.Measure(true) }
	res, err := load.Run(ctx, cfg, y.Ops(), y.NewWorker, r.WatchAs(op, y.Ops()...))
	if err != nil {
		return err
	}
	share, ok := y.HottestShare(records)
	for i := -1; i < len(y.Ops()); i++ {
		p := run
		p.Params = maps.Clone(run.Params)
		if i >= 0 {
			p.Workload = op + "/" + y.Ops()[i]
		}
		p = res.Fill(p, cfg, i)
		if ok { // a figure of the whole cell, which its parts carry too
			FigureDeclarations().Set(&p, "hottest_1pct_share", share)
		}
		add(p)
	}
	return nil
}

// notSupported is the run of a cell the engine cannot run.
func notSupported(run result.Run, cfg load.Config, why error) result.Run {
	run.Mode, run.Workers, run.Seed = cfg.Mode(), cfg.Workers, cfg.Seed
	run.ErrorKinds = map[string]int64{}
	run.Intervals = []result.Interval{}
	run.Warnings = []string{"not supported: " + why.Error()}
	FigureDeclarations().Set(&run, "not_supported", 1)
	return run
}

// withFreshStore runs fn on a new store of e in a directory of its own
// under parent, then closes the store and removes the directory.
func withFreshStore(ctx context.Context, parent string, e engine.Engine, o engine.Options, fn func(engine.Store) error) (err error) {
	dir, err := os.MkdirTemp(parent, dirPattern(e.Name))
	if err != nil {
		return fmt.Errorf("make directory for %s: %w", e.Name, err)
	}
	defer func() {
		if rerr := os.RemoveAll(dir); rerr != nil && err == nil {
			err = fmt.Errorf("remove %s: %w", dir, rerr)
		}
	}()
	o.Dir = dir
	s, err := e.Open(ctx, o)
	if err != nil {
		return fmt.Errorf("open %s: %w", e.Name, err)
	}
	defer func() {
		if cerr := closeWithin(s, closeTimeout); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", e.Name, cerr)
		}
	}()
	return fn(s)
}
