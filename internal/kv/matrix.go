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
	"time"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/kvycsb"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/storage"
)

// Matrix runs every engine × operation × fsync mode. Each cell (one
// operation on one engine in one fsync mode, one repetition) gets a store
// of its own, in the same state: see openCell.
type Matrix struct {
	Engines []engine.Engine
	Ops     []string // checked by CheckOps
	Fsync   []bool   // the modes, in order
	Spec    workload.Spec
	// Params holds the user's knobs per engine name, without the prefix.
	Params map[string]map[string]string
	// Dir is an existing directory for the engines' directories.
	Dir  string
	Load load.Config
	// Repeat is the number of repetitions; repetition k uses seed+k-1.
	Repeat int
	// Flags are recorded in every run's params, before the kv keys.
	Flags map[string]string
	YCSB  kvycsb.Spec
	// IO, when set, reads what the kernel counted on the data's device
	// for this process (a storage profile's cgroup): each cell records
	// what its measured window did.
	IO IOCounter
}

// IOCounter reads the IOs and bytes done on the data's device so far.
type IOCounter interface {
	Counters() (storage.Counters, error)
}

// Plan returns the matrix as a plan: one step per fsync mode × engine ×
// cell, each repetition on a store of its own; the engine's preloaded store
// is kept until its last cell of the last repetition. A cell that fails (an
// engine that cannot open) is an error, but the other cells still run:
// one broken engine must not cost the numbers of the rest.
func (m *Matrix) Plan() plan.Plan {
	// Interleaved: the whole matrix once per repetition, so that a cell's
	// repetitions are far apart in time and its spread shows a machine
	// whose load comes and goes, as a shared one does.
	p := plan.Plan{Family: "kv", Repeat: m.Repeat, Seed: m.Load.Seed, KeepGoing: true, Interleave: true}
	tpl := &templates{root: m.Dir}
	cells := m.cells()
	// failed holds the cells that failed: the plan does not run them again,
	// so the engine's last cell is the last one left.
	failed := map[templateKey]map[string]bool{}
	for _, sync := range m.Fsync {
		for _, e := range m.Engines {
			k := templateKey{e.Name, sync}
			failed[k] = map[string]bool{}
			for _, op := range cells {
				p.Steps = append(p.Steps, plan.Step{Target: e.Name, Workload: op, Run: func(ctx context.Context, r plan.Rep) (runs []result.Run, err error) {
					defer func() {
						// The engine's template is done with after its last
						// cell of the last repetition, or when the run stops;
						// after a failed last cell it is made again if needed.
						last := op == lastLeft(cells, failed[k])
						if err != nil {
							failed[k][op] = true
						}
						if ctx.Err() != nil || (last && (r.N >= max(m.Repeat, 1) || err != nil)) {
							err = errors.Join(err, tpl.drop(e.Name, sync))
						}
					}()
					return m.cell(ctx, e, sync, op, r, tpl)
				}})
			}
		}
	}
	return p
}

// lastLeft is the last of cells that has not failed.
func lastLeft(cells []string, failed map[string]bool) string {
	for i := len(cells) - 1; i >= 0; i-- {
		if !failed[cells[i]] {
			return cells[i]
		}
	}
	return ""
}

// cells are the operations that each need a run of their own: setmixed
// and getmixed come from one run, named after the first one asked for.
func (m *Matrix) cells() []string {
	var out []string
	for _, op := range m.Ops {
		if op == "getmixed" && slices.Contains(m.Ops, "setmixed") {
			continue
		}
		out = append(out, op)
	}
	return out
}

// cell measures one operation on a store of its own and returns its runs
// (two for the mixed pair), each with the store's key count and size on
// disk before and after. An engine that keeps data gets a copy of the
// template for its fsync mode and seed, which openCell made once; a memory
// engine is preloaded afresh.
func (m *Matrix) cell(ctx context.Context, e engine.Engine, sync bool, op string, r plan.Rep, tpl *templates) (runs []result.Run, err error) {
	if kvycsb.IsOp(op) {
		// YCSB's records are not the matrix's keys: a YCSB cell loads a
		// store of its own (ycsb-load starts from an empty one), never a
		// copy of the template.
		runtime.GC()
		runs, err = m.ycsbCell(ctx, e, sync, op, r)
		if err != nil {
			err = fmt.Errorf("%s %s: %w", e.Name, op, err)
		}
		return runs, err
	}
	knobs, err := e.ResolveParams(m.Params[e.Name])
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(m.Dir, dirPattern(e.Name))
	if err != nil {
		return nil, fmt.Errorf("make directory for %s: %w", e.Name, err)
	}
	defer func() {
		if rerr := os.RemoveAll(dir); rerr != nil && err == nil {
			err = fmt.Errorf("remove %s: %w", dir, rerr)
		}
	}()
	cfg := m.Load
	cfg.Seed = r.Seed
	cfg.InProcessTarget = true
	// The cell before left garbage (a memtable's arenas, a batch's
	// buffers): collected now, untimed, rather than in this cell's window.
	runtime.GC()
	rssReset := resetPeakRSS()
	c, err := m.startCell(ctx, e, engine.Options{Dir: dir, Sync: sync, Params: m.Params[e.Name]}, cfg.Seed, tpl)
	if err != nil || c == nil {
		return nil, err
	}
	defer func() {
		if cerr := closeWithin(c.s, closeTimeout); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", e.Name, cerr)
		}
	}()
	runs, after, err := m.measureCell(ctx, c, e.Name, op, cfg, m.params(e, knobs, sync), r)
	if err != nil {
		return runs, err
	}
	recordSpace(runs, after, m.Spec)
	recordRSS(runs, rssReset)
	return runs, nil
}

// startCell opens the cell's store in o.Dir: a copy of the engine's
// template, or a memory engine preloaded afresh. It returns no store and
// no error when the run was cancelled meanwhile.
func (m *Matrix) startCell(ctx context.Context, e engine.Engine, o engine.Options, seed uint64, tpl *templates) (*cellStore, error) {
	var c *cellStore
	var err error
	if e.Persistent() {
		var from string
		if from, err = tpl.get(ctx, e, o, m.Spec, seed); err == nil {
			c, err = copyCell(ctx, e, o, m.Spec, from)
		}
	} else {
		c, err = openCell(ctx, e, o, m.Spec, seed)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	return c, nil
}

// measureCell runs op on c's store and records on each run the store's
// state before and after, and the storage profile's IO over the run. It
// returns the state after too.
func (m *Matrix) measureCell(ctx context.Context, c *cellStore, name, op string, cfg load.Config, params map[string]string, r plan.Rep) ([]result.Run, storeState, error) {
	before, err := c.state()
	if err != nil {
		return nil, before, fmt.Errorf("%s: %w", name, err)
	}
	io0, err := m.ioCounters()
	if err != nil {
		return nil, before, err
	}
	ioStart := time.Now()
	runs, err := m.op(ctx, c, name, op, cfg, params, r)
	if err != nil {
		return runs, before, fmt.Errorf("%s %s: %w", name, op, err)
	}
	if err := m.recordIO(runs, io0, time.Since(ioStart)); err != nil {
		return runs, before, err
	}
	after, err := c.state()
	if err != nil {
		return runs, after, fmt.Errorf("%s: %w", name, err)
	}
	for i := range runs {
		before.record(&runs[i], "start")
		after.record(&runs[i], "end")
	}
	return runs, after, nil
}

// closeTimeout bounds the wait for an engine to close: one that failed
// mid-run (pebble after a WAL write error) may never return.
const closeTimeout = 10 * time.Second

// closeWithin closes s, giving up after d.
func closeWithin(s engine.Store, d time.Duration) error {
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

// op runs one workload on c's store and returns its runs, with the bytes
// the users' writes came to.
func (m *Matrix) op(ctx context.Context, c *cellStore, name, op string, cfg load.Config, params map[string]string, r plan.Rep) ([]result.Run, error) {
	params = maps.Clone(params)
	base := result.Run{Family: "kv", Target: name, Params: params, Repeat: r.N}
	if op == "del" {
		return m.delOp(ctx, c, base, cfg, r)
	}
	w, end, err := newWorkload(c, op, cfg)
	if err != nil {
		return nil, err
	}
	label := op
	if op == "setmixed" || op == "getmixed" {
		label = "mixed"
	}
	res, err := load.Run(ctx, cfg, w.Ops(), w.NewWorker, r.WatchAs(label, w.Ops()...))
	if err != nil {
		return nil, err
	}
	if end != nil {
		end()
	}
	runs := m.opRuns(res, base, op, cfg)
	recordWrites(runs, res, m.Spec)
	return runs, nil
}

// newWorkload is op's workload over c's store, and what to call after its
// run (nil when nothing): the keys it wrote or deleted are then counted.
func newWorkload(c *cellStore, op string, cfg load.Config) (workload.Workload, func(), error) {
	switch op {
	case "set":
		ws := workload.NewSet(c.s, c.d, cfg)
		return ws, ws.End, nil
	case "update":
		wu, err := workload.NewUpdate(c.s, c.d)
		return wu, nil, err
	case "get":
		wg, err := workload.NewGet(c.s, c.d)
		return wg, nil, err
	case "setmixed", "getmixed":
		wm, err := workload.NewMixed(c.s, c.d)
		if err != nil {
			return nil, nil, err
		}
		return wm, wm.End, nil
	case "batchset":
		wb := workload.NewBatchSet(c.s, c.d, cfg)
		return wb, wb.End, nil
	}
	return nil, nil, errors.New("unknown operation") // CheckOps rules it out
}

// delOp runs del in rounds (see delRounds) and returns its run.
func (m *Matrix) delOp(ctx context.Context, c *cellStore, base result.Run, cfg load.Config, r plan.Rep) ([]result.Run, error) {
	wd, err := workload.NewDel(c.s, c.d)
	if err != nil {
		return nil, err
	}
	res, rounds, err := c.delRounds(ctx, wd, cfg, r.WatchAs("del", wd.Ops()...))
	if err != nil {
		return nil, err
	}
	base.Params["warmup"] = "0s"
	run := res.Fill(withWorkload(base, "del"), cfg, 0)
	FigureDeclarations().Set(&run, "del_rounds", float64(rounds))
	runs := []result.Run{run}
	recordWrites(runs, res, m.Spec)
	return runs, nil
}

// opRuns are the runs of op's result: one, or for the mixed pair one per
// side the matrix asked for (the writer, then the readers); batchset's
// with its keys per second and time per key.
func (m *Matrix) opRuns(res *load.Result, base result.Run, op string, cfg load.Config) []result.Run {
	switch op {
	case "setmixed", "getmixed":
		var runs []result.Run
		for i, name := range []string{"setmixed", "getmixed"} {
			if !slices.Contains(m.Ops, name) {
				continue
			}
			run := base
			run.Params = maps.Clone(base.Params)
			run.Workload = name
			run = res.Fill(run, cfg, i)
			run.Workers = 1 // the writer
			if i == workload.MixedGet {
				run.Workers = cfg.Workers - 1
			}
			runs = append(runs, run)
		}
		return runs
	case "batchset":
		run := res.Fill(withWorkload(base, op), cfg, 0)
		x := FigureDeclarations()
		x.Set(&run, "keys_s", run.RowsPerS)
		if run.Rows > 0 {
			x.Set(&run, "ns_per_key", run.Latency.Mean/float64(m.Spec.Batch))
		}
		return []result.Run{run}
	}
	return []result.Run{res.Fill(withWorkload(base, op), cfg, 0)}
}

// ioCounters reads m.IO, or zero without one.
func (m *Matrix) ioCounters() (storage.Counters, error) {
	if m.IO == nil {
		return storage.Counters{}, nil
	}
	c, err := m.IO.Counters()
	if err != nil {
		return c, fmt.Errorf("read the storage profile's IO counters: %w", err)
	}
	return c, nil
}

// recordIO adds to runs what the device did since the reading from:
// the cell's whole window (the mixed pair's two runs share one).
func (m *Matrix) recordIO(runs []result.Run, from storage.Counters, span time.Duration) error {
	if m.IO == nil {
		return nil
	}
	now, err := m.ioCounters()
	if err != nil {
		return err
	}
	storage.RecordIO(runs, now.Sub(from), span.Seconds())
	return nil
}

func withWorkload(r result.Run, op string) result.Run {
	r.Workload = op
	return r
}

// params are the run's flags plus what the kv family adds: the fsync mode,
// the engine's durable-write switch and every engine knob.
func (m *Matrix) params(e engine.Engine, knobs map[string]string, sync bool) map[string]string {
	p := maps.Clone(m.Flags)
	if p == nil {
		p = map[string]string{}
	}
	p["fsync"] = strconv.FormatBool(sync)
	p[result.SettingFsyncSwitch] = e.SyncLabel(sync)
	p[result.SettingPreloadedKeys] = strconv.Itoa(m.Spec.Keys)
	for k, v := range knobs {
		p[e.Name+"."+k] = v
	}
	return p
}

// FigureDeclarations declares the extra figures a kv run writes, with how
// the shards of one test would merge them; under a storage profile, also
// the device IOs its cgroup counted (storage.FigureDeclarations).
func FigureDeclarations() result.Declarations {
	d := kvFigures()
	maps.Copy(d, storage.FigureDeclarations())
	return d
}

func kvFigures() result.Declarations {
	return result.Declarations{
		"keys_s":     result.Sum("keys/s"),
		"ns_per_key": result.Mean("ns", "ops"),
		// A cell's store at its start and end (kv runs on one machine:
		// shards never split a store).
		"keys_start":       result.Equal("keys"),
		"keys_end":         result.Max("keys"),
		"disk_bytes_start": result.Max("bytes"),
		"disk_bytes_end":   result.Max("bytes"),
		"del_rounds":       result.Sum("rounds"),
		// YCSB: the share of the cell's operations that went to its
		// hottest 1% of records (each shard would find its own), and a
		// cell the engine cannot run.
		"hottest_1pct_share": result.Mean("share", "ops"),
		"not_supported":      result.Max("flag"),
		// What the cell cost the storage and memory (costs.go).
		"user_write_bytes":       result.Sum("bytes"),
		"io_write_bytes":         result.Sum("bytes"),
		"write_amp":              result.Mean("ratio", "user_write_bytes"),
		"space_amp":              result.Max("ratio"),
		"peak_rss_bytes":         result.Max("bytes"),
		"stall_intervals":        result.Sum("intervals"),
		"slowest_interval_share": result.Min("share"),
		// The harness shape (harness.go): whether the engine synced its
		// writes (cznic/kv did not in seed 004's harness, fsync or not),
		// and how many of its gets found no key.
		"writes_synced": result.Min("flag"),
		"get_misses":    result.Sum("ops"),
	}
}
