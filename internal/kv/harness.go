package kv

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/storage"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Shapes are the ways kv can run its operations: dbmeter's own cells
// (every operation on a store of its own, preloaded, for a duration), or
// the shape of seed 004's harness (smallnest/kvbench): each engine from an
// empty store through set, get, the mixed pair and del on that one store,
// each phase a count split over the workers. The harness's shape is what
// the article's figures measured; the cells are the better method (each
// figure independent of the phases before it, repeated and pooled).
const (
	ShapeCells   = "cells"
	ShapeHarness = "harness"
)

// HarnessPhases are the harness's phases in its order; the mixed phase
// gives setmixed (the writer) and getmixed (the readers).
var harnessPhases = []string{"set", "get", "mixed", "del"}

// Harness runs seed 004's harness shape on each engine and fsync mode.
type Harness struct {
	Engines []engine.Engine
	Fsync   []bool
	Spec    workload.Spec
	Params  map[string]map[string]string
	// Dir is an existing directory for the engines' directories.
	Dir string
	// Load's Count is the harness's n, done by each phase; its Workers the
	// harness's c.
	Load   load.Config
	Repeat int
	Flags  map[string]string
	IO     IOCounter
}

// syncsInHarness reports whether e's writes were synced in the harness
// with fsync on: its cznic/kv store created the database with default
// options and never read the flag (seed 004's harness notes).
func syncsInHarness(e engine.Engine) bool { return e.Name != "cznic/kv" }

// Plan is one step per fsync mode × engine; a step runs the four phases
// on a new store and returns a run per operation.
func (h *Harness) Plan() plan.Plan {
	p := plan.Plan{Family: "kv", Repeat: h.Repeat, Seed: h.Load.Seed, KeepGoing: true, Interleave: true}
	for _, sync := range h.Fsync {
		for _, e := range h.Engines {
			p.Steps = append(p.Steps, plan.Step{Target: e.Name, Workload: "harness", Run: func(ctx context.Context, r plan.Rep) ([]result.Run, error) {
				runs, err := h.run(ctx, e, sync, r)
				if err != nil {
					err = fmt.Errorf("%s: %w", e.Name, err)
				}
				return runs, err
			}})
		}
	}
	return p
}

// run opens e on a new, empty directory and runs the phases in order.
func (h *Harness) run(ctx context.Context, e engine.Engine, sync bool, r plan.Rep) (runs []result.Run, err error) {
	knobs, err := e.ResolveParams(h.Params[e.Name])
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(h.Dir, dirPattern(e.Name))
	if err != nil {
		return nil, fmt.Errorf("make directory: %w", err)
	}
	defer func() {
		if rerr := os.RemoveAll(dir); rerr != nil && err == nil {
			err = fmt.Errorf("remove %s: %w", dir, rerr)
		}
	}()
	synced := sync && syncsInHarness(e)
	runtime.GC()
	s, err := e.Open(ctx, engine.Options{Dir: dir, Sync: synced, Params: h.Params[e.Name]})
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	defer func() {
		if cerr := closeWithin(s, closeTimeout); cerr != nil && err == nil {
			err = fmt.Errorf("close: %w", cerr)
		}
	}()
	base := result.Run{Family: "kv", Target: e.Name, Params: h.params(e, knobs, sync, synced), Repeat: r.N}
	for _, phase := range harnessPhases {
		got, err := h.phase(ctx, s, phase, base, r)
		for i := range got {
			FigureDeclarations().Set(&got[i], "writes_synced", boolFigure(synced))
		}
		runs = append(runs, got...)
		if err != nil {
			return runs, fmt.Errorf("%s: %w", phase, err)
		}
	}
	return runs, nil
}

func boolFigure(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// phase runs one phase and returns its runs, with the IO the storage
// profile counted over it.
func (h *Harness) phase(ctx context.Context, s engine.Store, phase string, base result.Run, r plan.Rep) ([]result.Run, error) {
	cfg := h.Load
	cfg.Seed = r.Seed
	cfg.InProcessTarget = true
	io0, err := readIO(h.IO)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	var runs []result.Run
	if phase == "mixed" {
		runs, err = h.mixed(ctx, s, cfg, base, r)
	} else {
		runs, err = h.concurrent(ctx, s, phase, cfg, base, r)
	}
	if err != nil || h.IO == nil {
		return runs, err
	}
	io1, err := readIO(h.IO)
	if err != nil {
		return runs, err
	}
	storage.RecordIO(runs, io1.Sub(io0), time.Since(start).Seconds())
	return runs, nil
}

func readIO(c IOCounter) (storage.Counters, error) {
	if c == nil {
		return storage.Counters{}, nil
	}
	n, err := c.Counters()
	if err != nil {
		return n, fmt.Errorf("read the storage profile's IO counters: %w", err)
	}
	return n, nil
}

// concurrent runs set, get or del: Workers goroutines, Count/Workers
// operations each on the harness's keys.
func (h *Harness) concurrent(ctx context.Context, s engine.Store, op string, cfg load.Config, base result.Run, r plan.Rep) ([]result.Run, error) {
	w, err := workload.NewHarnessPhase(s, op, h.Spec.ValueSize)
	if err != nil {
		return nil, err
	}
	res, err := load.Run(ctx, cfg, w.Ops(), w.NewWorker, r.WatchAs(op, w.Ops()...))
	if err != nil {
		return nil, err
	}
	run := res.Fill(withWorkload(cloneRun(base), op), cfg, 0)
	if op == "get" {
		FigureDeclarations().Set(&run, "get_misses", float64(w.Misses.Load()))
	}
	return []result.Run{run}, nil
}

// mixed runs the harness's mixed phase: one goroutine sets keys 0, 1, 2, …
// while Workers readers do Count/Workers gets each; the phase ends when
// the readers finish. setmixed is the writer's count over its time.
func (h *Harness) mixed(ctx context.Context, s engine.Store, cfg load.Config, base result.Run, r plan.Rep) ([]result.Run, error) {
	readers, err := workload.NewHarnessPhase(s, "get", h.Spec.ValueSize)
	if err != nil {
		return nil, err
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var wr writerResult
	wg.Go(func() { wr = runWriter(workload.NewHarnessWriter(s, h.Spec.ValueSize, load.Rand(r.Seed, 1<<32)), stop) })
	res, err := load.Run(ctx, cfg, readers.Ops(), readers.NewWorker, r.WatchAs("mixed", readers.Ops()...))
	close(stop)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	get := res.Fill(withWorkload(cloneRun(base), "getmixed"), cfg, 0)
	set := withWorkload(cloneRun(base), "setmixed")
	set.Mode, set.Seed, set.Workers = get.Mode, get.Seed, 1
	secs := wr.span.Seconds()
	set.Stats = result.Stats{DurationS: secs, Ops: wr.ops, Latency: result.LatencyOf(wr.lat), Intervals: []result.Interval{}, ErrorKinds: map[string]int64{}}
	set.Service = set.Latency
	if secs > 0 {
		set.OpsPerS = float64(wr.ops) / secs
	}
	return []result.Run{set, get}, wr.err
}

// writerResult is what the mixed phase's writer did.
type writerResult struct {
	ops  int64
	span time.Duration
	lat  *hdrhistogram.Histogram
	err  error
}

// runWriter sets keys until stop is closed or a write fails.
func runWriter(w *workload.HarnessWriter, stop <-chan struct{}) writerResult {
	out := writerResult{lat: hist.New()}
	start := time.Now()
	for {
		select {
		case <-stop:
			out.span = time.Since(start)
			return out
		default:
		}
		t := time.Now()
		if err := w.Set(); err != nil {
			out.span = time.Since(start)
			out.err = fmt.Errorf("setmixed's writer: %w", err)
			return out
		}
		hist.Record(out.lat, int64(time.Since(t)))
		out.ops++
	}
}

func cloneRun(r result.Run) result.Run {
	r.Params = maps.Clone(r.Params)
	return r
}

// params are the run's flags plus the fsync mode, the engine's switch as
// the harness set it, and the engine's knobs.
func (h *Harness) params(e engine.Engine, knobs map[string]string, sync, synced bool) map[string]string {
	p := maps.Clone(h.Flags)
	if p == nil {
		p = map[string]string{}
	}
	p[result.SettingFsync] = strconv.FormatBool(sync)
	p[result.SettingFsyncSwitch] = e.SyncLabel(synced)
	if sync && !synced {
		p[result.SettingFsyncSwitch] += "; fsync asked for, not applied: the harness's " + e.Name + " store never read its fsync flag"
	}
	p[result.SettingPreloadedKeys] = "0"
	for k, v := range knobs {
		p[e.Name+"."+k] = v
	}
	return p
}

// NewHarness checks o for the harness shape and returns it; its errors
// are the user's. Ops may be empty (the harness's phases) or name all of
// them: the phases run on one store in the harness's order, each on what
// the one before left, so none can be left out. Its Dir is for the caller
// to set.
func NewHarness(o MatrixOptions) (*Harness, error) {
	h, err := newHarness(o)
	return h, usage.Wrap(err)
}

func newHarness(o MatrixOptions) (*Harness, error) {
	if err := o.Spec.Validate(); err != nil {
		return nil, err
	}
	if o.Spec.KeySize != workload.HarnessKeySize {
		return nil, fmt.Errorf("the harness shape writes the harness's %d-byte keys ('k' and 8 big-endian bytes): drop {KeySize} %d", workload.HarnessKeySize, o.Spec.KeySize)
	}
	if len(o.Ops) > 0 && !sameSet(o.Ops, []string{"set", "get", "setmixed", "getmixed", "del"}) {
		return nil, fmt.Errorf("the harness shape runs set, get, setmixed/getmixed and del in that order on one store, each phase on what the one before left: give all five in {Ops} or none, got %s", strings.Join(o.Ops, ","))
	}
	if o.Load.Count <= 0 || o.Load.Duration > 0 {
		return nil, errors.New("the harness shape runs a count of operations per phase, split over the workers: give {Count} (the harness ran 1000000 with fsync off, 10000 with fsync on) and no {Duration}")
	}
	if o.Load.Warmup > 0 {
		return nil, errors.New("the harness shape times every operation of a phase, as the harness did: drop {Warmup}")
	}
	if o.Load.Open() {
		return nil, errors.New("the harness shape runs closed loop, as the harness did: drop {Rate}")
	}
	sel, err := o.selection()
	if err != nil {
		return nil, err
	}
	return &Harness{Engines: sel.engines, Fsync: sel.modes, Spec: o.Spec, Params: sel.params, Load: o.Load, Repeat: o.Repeat, Flags: o.Flags}, nil
}

// sameSet reports whether a and b hold the same names, in any order.
func sameSet(a, b []string) bool {
	x, y := slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}
