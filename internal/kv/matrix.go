package kv

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Matrix runs every engine × operation × fsync mode. Each engine gets a
// fresh directory per fsync mode and repetition, is preloaded once (not
// timed), runs the operations in run order, and is removed.
type Matrix struct {
	Engines []Engine
	Ops     []string // checked by CheckOps
	Fsync   []bool   // the modes, in order
	Spec    Spec
	// Params holds the user's knobs per engine name, without the prefix.
	Params map[string]map[string]string
	// Dir is an existing directory for the engines' directories.
	Dir  string
	Load load.Config
	// Repeat is the number of repetitions; repetition k uses seed+k-1.
	Repeat int
	// Flags are recorded in every run's params, before the kv keys.
	Flags map[string]string
	YCSB  YCSBSpec
}

// Plan returns the matrix as a plan: one step per fsync mode × engine,
// each running every operation on one fresh store. An engine that fails to
// open, preload or close is an error, but the other engines still run: one
// broken engine must not cost the numbers of the rest.
func (m *Matrix) Plan() plan.Plan {
	p := plan.Plan{Family: "kv", Repeat: m.Repeat, Seed: m.Load.Seed, KeepGoing: true}
	for _, sync := range m.Fsync {
		for _, e := range m.Engines {
			p.Steps = append(p.Steps, plan.Step{Target: e.Name, Workload: "matrix", Run: func(ctx context.Context, r plan.Rep) ([]result.Run, error) {
				var runs []result.Run
				add := func(run result.Run) { runs = append(runs, run) }
				err := errors.Join(m.engine(ctx, e, sync, r, add), m.ycsbCells(ctx, e, sync, r, add))
				return runs, err
			}})
		}
	}
	return p
}

func (m *Matrix) engine(ctx context.Context, e Engine, sync bool, r plan.Rep, add func(result.Run)) (err error) {
	if !slices.ContainsFunc(m.Ops, notYCSB) {
		return nil // the YCSB cells open stores of their own
	}
	knobs, err := e.ResolveParams(m.Params[e.Name])
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp(m.Dir, strings.ReplaceAll(e.Name, ":", "-")+"-")
	if err != nil {
		return fmt.Errorf("make directory for %s: %w", e.Name, err)
	}
	defer func() {
		if rerr := os.RemoveAll(dir); rerr != nil && err == nil {
			err = fmt.Errorf("remove %s: %w", dir, rerr)
		}
	}()
	s, err := e.Open(ctx, Options{Dir: dir, Sync: sync, Params: m.Params[e.Name]})
	if err != nil {
		return fmt.Errorf("open %s: %w", e.Name, err)
	}
	defer func() {
		if cerr := closeWithin(s, closeTimeout); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", e.Name, cerr)
		}
	}()
	cfg := m.Load
	cfg.Seed = r.Seed
	cfg.InProcessTarget = true
	d := NewData(m.Spec)
	if needsPreload(m.Ops) {
		if err := d.Preload(ctx, s, cfg.Seed); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("%s: %w", e.Name, err)
		}
	}
	params := m.params(e, knobs, sync)
	for _, op := range m.Ops {
		if op == "getmixed" && slices.Contains(m.Ops, "setmixed") || isYCSB(op) {
			continue // the setmixed run reported it; ycsbCells runs YCSB's
		}
		if ctx.Err() != nil {
			return nil
		}
		if err := m.op(ctx, s, d, e.Name, op, cfg, params, r, add); err != nil {
			return fmt.Errorf("%s %s: %w", e.Name, op, err)
		}
	}
	return nil
}

// closeTimeout bounds the wait for an engine to close: one that failed
// mid-run (pebble after a WAL write error) may never return.
const closeTimeout = 10 * time.Second

// closeWithin closes s, giving up after d.
func closeWithin(s Store, d time.Duration) error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("the engine panicked while closing: %v", p)
			}
		}()
		done <- s.Close()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return fmt.Errorf("the engine did not close within %s: it is stuck after a failure", d)
	}
}

// op runs one workload and adds its runs.
func (m *Matrix) op(ctx context.Context, s Store, d *Data, engine, op string, cfg load.Config, params map[string]string, r plan.Rep, add func(result.Run)) error {
	params = maps.Clone(params)
	var w Workload
	var end func()
	switch op {
	case "set":
		ws := NewSet(s, d, cfg)
		w, end = ws, ws.End
	case "get":
		wg, err := NewGet(s, d)
		if err != nil {
			return err
		}
		w = wg
	case "setmixed", "getmixed":
		wm, err := NewMixed(s, d)
		if err != nil {
			return err
		}
		w, end = wm, wm.End
	case "batchset":
		wb := NewBatchSet(s, d, cfg)
		w, end = wb, wb.End
	case "del":
		wd, err := NewDel(s, d)
		if err != nil {
			return err
		}
		w, end = wd, wd.End
		cfg = delConfig(cfg, d.Preloaded)
		params["duration"], params["warmup"], params["count"] = "0s", "0s", strconv.FormatInt(cfg.Count, 10)
	default:
		return errors.New("unknown operation") // CheckOps rules it out
	}
	label := op
	if op == "setmixed" || op == "getmixed" {
		label = "mixed"
	}
	res, err := load.Run(ctx, cfg, w.Ops(), w.NewWorker, r.WatchAs(label, w.Ops()...))
	if err != nil {
		return err
	}
	if end != nil {
		end()
	}
	base := result.Run{Family: "kv", Target: engine, Params: params, Repeat: r.N}
	switch op {
	case "setmixed", "getmixed":
		for i, name := range []string{"setmixed", "getmixed"} {
			if !slices.Contains(m.Ops, name) {
				continue
			}
			run := base
			run.Params = maps.Clone(params)
			run.Workload = name
			run = res.Fill(run, cfg, i)
			run.Workers = 1 // the writer
			if i == mixedGet {
				run.Workers = cfg.Workers - 1
			}
			add(run)
		}
	case "batchset":
		run := res.Fill(withWorkload(base, op), cfg, 0)
		run.Extra = map[string]float64{"keys_s": run.RowsPerS}
		if run.Rows > 0 {
			run.Extra["ns_per_key"] = run.Latency.Mean / float64(m.Spec.Batch)
		}
		add(run)
	default:
		add(res.Fill(withWorkload(base, op), cfg, 0))
	}
	return nil
}

func withWorkload(r result.Run, op string) result.Run {
	r.Workload = op
	return r
}

// delConfig makes the del run delete each preloaded key once: a count run
// of --count keys, or of all of them, with no warm-up (a warm-up would
// delete keys without measuring).
func delConfig(cfg load.Config, preloaded uint64) load.Config {
	n := int64(preloaded)
	if cfg.Count > 0 {
		n = min(cfg.Count, n)
	}
	cfg.Duration, cfg.Warmup, cfg.Count = 0, 0, max(n, int64(cfg.Workers))
	return cfg
}

// params are the run's flags plus what the kv family adds: the fsync mode,
// the engine's durable-write switch and every engine knob.
func (m *Matrix) params(e Engine, knobs map[string]string, sync bool) map[string]string {
	p := maps.Clone(m.Flags)
	if p == nil {
		p = map[string]string{}
	}
	p["fsync"] = strconv.FormatBool(sync)
	if e.Sync != "" {
		p["fsync_switch"] = e.Sync
	} else {
		p["fsync_switch"] = "none (memory engine)"
	}
	p["preloaded_keys"] = "0"
	if needsPreload(m.Ops) {
		p["preloaded_keys"] = strconv.Itoa(m.Spec.Keys)
	}
	for k, v := range knobs {
		p[e.Name+"."+k] = v
	}
	return p
}
