package insert

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Auto, in Config.Clients, stands for every Go client path the server
// supports; "auto" alone is Clients empty.
const Auto = "auto"

// Config is one `ch insert` command: the client paths, the rows, the
// table, and how to drive the load.
type Config struct {
	DSN ch.DSN
	// Clients names the paths to run; empty: every registered Go path the
	// server supports (Auto, which may also be one name of the list).
	Clients []string
	Table   Table
	// Schema is the table's shape and the rows' generator; zero: EventTable.
	Schema Schema
	// Create (re)creates the table (see Admin.Prepare), with ExtraColumns
	// padding columns.
	Create       bool
	ExtraColumns int
	// Engine is the table engine Create makes the table with: MergeTree
	// (EngineMergeTree, the default) or Null (EngineNull: rows are
	// accepted and discarded, no part is written, as seed 002's author's
	// insert_test).
	Engine string
	// Batch is the rows per block: one operation.
	Batch int
	// Batches and WorkerCounts, when given, replace Batch and Load.Workers
	// by lists: every client runs once per combination (a sweep), each a
	// variant of its own.
	Batches, WorkerCounts []int
	// Rows > 0 inserts exactly that many rows per client and repetition
	// instead of running for Load.Duration.
	Rows            int64
	BlocksPerInsert int
	NoDelay         bool
	// WorkerCmd is the command of the "worker" client (--worker-cmd);
	// WorkerTimeout how long an external worker may take to answer before
	// it counts as hung (0: extworker.DefaultOpTimeout). Getenv picks the
	// reference workers' interpreters ($DBMETER_PHP, $DBMETER_PYTHON).
	WorkerCmd     string
	WorkerTimeout time.Duration
	Getenv        func(string) string
	// Load drives each run; its Seed is the first repetition's.
	Load   load.Config
	Repeat int
	// Params are the command's settings as every run records them.
	Params map[string]string
}

// schema is the table's shape, EventTable unless chosen.
func (c Config) schema() Schema {
	if c.Schema.Name == "" {
		return EventTable
	}
	return c.Schema
}

// MaxExtraColumns bounds Config.ExtraColumns.
const MaxExtraColumns = 10_000

// Validate reports the first setting that cannot work, naming settings
// as {Field} (of Config or load.Config) for the CLI to spell. It is the
// one place ch insert's rules live: Resolve runs its rows part early so
// that a contradiction is said before the run settings are checked.
func (c Config) Validate() error {
	if err := c.validateRows(); err != nil {
		return err
	}
	switch {
	case c.Table.Name == "":
		return errors.New("no table")
	case c.DSN.Addr == "":
		return errors.New("no server address")
	case c.WorkerTimeout < 0:
		return fmt.Errorf("{WorkerTimeout} must not be negative, got %s", c.WorkerTimeout)
	case c.WorkerCmd != "" && !slices.Contains(c.Clients, "worker"):
		return errors.New("{WorkerCmd} runs only as the client worker: add worker to {Clients}")
	case c.WorkerCmd == "" && slices.Contains(c.Clients, "worker"):
		return errors.New("the client worker needs {WorkerCmd}: the program that speaks the worker protocol (docs/worker-protocol.md)")
	}
	for _, n := range c.Clients {
		if _, err := Lookup(n); err != nil && n != Auto {
			return err
		}
	}
	cfg, err := c.LoadConfig()
	if err != nil {
		return err
	}
	if c.Rows > 0 && !cfg.Open() && cfg.Count < int64(cfg.Workers) {
		return fmt.Errorf("{Rows} %d makes %d blocks of {Batch} %d, fewer than {Workers} %d: lower {Batch} or {Workers}", c.Rows, cfg.Count, c.Batch, cfg.Workers)
	}
	return cfg.Validate()
}

// validateRows checks the rows, blocks and table shape asked for.
func (c Config) validateRows() error {
	for _, b := range c.Batches {
		if b < 1 {
			return fmt.Errorf("{Batch} must be at least 1, got %d", b)
		}
	}
	switch {
	case c.Batch < 1:
		return fmt.Errorf("{Batch} must be at least 1, got %d", c.Batch)
	case c.Rows < 0:
		return fmt.Errorf("{Rows} must not be negative, got %d", c.Rows)
	case c.BlocksPerInsert < 1:
		return fmt.Errorf("{BlocksPerInsert} must be at least 1, got %d", c.BlocksPerInsert)
	case c.ExtraColumns < 0 || c.ExtraColumns > MaxExtraColumns:
		return fmt.Errorf("{ExtraColumns} must be 0 to %d, got %d", MaxExtraColumns, c.ExtraColumns)
	case c.ExtraColumns > 0 && !c.Create:
		return errors.New("{ExtraColumns} shapes the table {Create} makes: add {Create}")
	case c.Engine != "" && c.Engine != EngineMergeTree && c.Engine != EngineNull:
		return fmt.Errorf("{Engine} must be %s or %s, got %q", EngineMergeTree, EngineNull, c.Engine)
	case c.Engine == EngineNull && !c.Create:
		return errors.New("{Engine} is the engine of the table {Create} makes: add {Create}")
	case c.Rows > 0 && c.Load.Warmup > 0:
		return errors.New("{Warmup} needs {Duration}: with {Rows} every row inserted counts")
	}
	return nil
}

// ForShard makes c one shard's part of a test split by Load.Shard: its
// share of the rows, and a table of its own (the table's name with
// "_shardI"), so that its row check counts only its own inserts while the
// command stays the same on every shard.
func (c Config) ForShard() Config {
	if sh := c.Load.Shard; sh.Sharded() {
		c.Rows = sh.Split(c.Rows)
		c.Table.Name = fmt.Sprintf("%s_shard%d", c.Table.Name, sh.Index)
	}
	return c
}

// LoadConfig is the load configuration of every run: one operation per
// block, so a row count becomes a count of blocks.
func (c Config) LoadConfig() (load.Config, error) {
	cfg := c.Load
	cfg.Phases = Phases
	if c.Rows > 0 {
		cfg.Duration, cfg.Count = 0, (c.Rows+int64(c.Batch)-1)/int64(c.Batch)
	}
	return cfg, nil
}

// Gate splits the configured clients into those that support server and
// those listed by name that do not (one error each, naming both
// versions). With no clients listed, every registered client the server
// supports is kept and the others are left out silently.
func (c Config) Gate(server ch.Version) (ok []string, refused []error) {
	// auto: the Go clients the server supports. External clients need
	// their language installed: they run only by name; a refusal names
	// every client the server supports.
	var supported, auto []string
	for _, n := range Names() {
		if cl, _ := Lookup(n); ch.CheckServer(n, server, cl.MinServer) == nil {
			supported = append(supported, n)
			if cl.External == nil {
				auto = append(auto, n)
			}
		}
	}
	if len(c.Clients) == 0 {
		return auto, nil
	}
	for _, n := range c.Clients {
		if n == Auto { // in a list: the Go clients the server supports, there
			for _, a := range auto {
				if !slices.Contains(ok, a) && !slices.Contains(c.Clients, a) {
					ok = append(ok, a)
				}
			}
			continue
		}
		cl, _ := Lookup(n)
		if err := ch.CheckServer(n, server, cl.MinServer); err != nil {
			refused = append(refused, ch.Suggest(err, supported))
			continue
		}
		ok = append(ok, n)
	}
	return ok, refused
}

// Prepared is a plan with the connection its steps count rows through.
type Prepared struct {
	Plan plan.Plan
	// Refused are the clients listed by name that are too new for the
	// server, one error each; they have no step.
	Refused []error
	admin   *Admin
	server  ch.Version
}

// Close disconnects the row counter.
func (p *Prepared) Close() error { return p.admin.Close() }

// Prepare validates c, makes the table ready (creating it with Create)
// and returns the plan of family's runs: one step per client the server
// supports. It fails when no client can run.
func Prepare(ctx context.Context, family string, c Config, server ch.Version) (*Prepared, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	names, refused := c.Gate(server)
	if len(names) == 0 {
		// The user's list to fix, as in ch query: exit 2.
		return nil, usage.Wrap(&GateError{Refused: refused, Server: server})
	}
	for _, n := range names {
		cl, _ := Lookup(n)
		if err := c.DSN.Check(n, cl.DSN); err != nil {
			return nil, usage.Wrap(err)
		}
	}
	admin, err := OpenAdmin(ctx, c.DSN)
	if err != nil {
		return nil, err
	}
	if err := admin.Prepare(ctx, c.Table, c.schema(), c.Create, c.ExtraColumns, c.Engine); err != nil {
		admin.Close()
		return nil, err
	}
	variants, err := c.variants()
	if err != nil {
		admin.Close()
		return nil, usage.Wrap(err)
	}
	p := &Prepared{Refused: refused, admin: admin, server: server}
	// Interleaved: every client and variant once, then all again, so that
	// the clients compared see the same moments of a machine whose load
	// comes and goes.
	p.Plan = plan.Plan{Family: family, Repeat: c.Repeat, Seed: c.Load.Seed, KeepGoing: true, Interleave: true}
	rings := map[ringKey]generated{}
	for _, v := range variants {
		for _, n := range names {
			r := &runner{c: v, name: n, server: server, admin: admin, rings: rings}
			target := n
			if len(variants) > 1 {
				target += fmt.Sprintf(" batch=%d workers=%d", v.Batch, v.Load.Workers)
			}
			p.Plan.Steps = append(p.Plan.Steps, plan.Step{Target: target, Workload: Op, Run: r.run})
		}
	}
	return p, nil
}

// variants is c once per combination of Batches and WorkerCounts, the
// batch varying slowest, each validated; c alone when neither is a list.
func (c Config) variants() ([]Config, error) {
	batches, workers := c.Batches, c.WorkerCounts
	if len(batches) == 0 {
		batches = []int{c.Batch}
	}
	if len(workers) == 0 {
		workers = []int{c.Load.Workers}
	}
	var out []Config
	for _, ix := range plan.Cross(len(batches), len(workers)) {
		v := c
		v.Batch, v.Load.Workers = batches[ix[0]], workers[ix[1]]
		v.Load.MaxInFlight = max(v.Load.MaxInFlight, v.Load.Workers)
		v.Params = maps.Clone(c.Params)
		if v.Params != nil {
			v.Params["batch"], v.Params["workers"] = strconv.Itoa(v.Batch), strconv.Itoa(v.Load.Workers)
		}
		if err := v.Validate(); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// GateError says no listed client supports the server, in one line: each
// refusal names the versions and the clients to pick instead.
type GateError struct {
	Refused []error
	Server  ch.Version
}

func (e *GateError) Error() string {
	if len(e.Refused) == 0 {
		return fmt.Sprintf("no client supports ClickHouse %s", e.Server)
	}
	refused := ch.GroupTooOld(e.Refused)
	msgs := make([]string, len(refused))
	for i, err := range refused {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

// RefusedLine sums up the refused clients in one line.
func RefusedLine(refused []error, server ch.Version) string {
	var names []string
	for _, err := range refused {
		var ve *ch.TooOldError
		if errors.As(err, &ve) {
			names = append(names, ve.Client)
		}
	}
	return fmt.Sprintf("refused %s: too new for ClickHouse %s (see above)", strings.Join(names, ", "), server)
}

// generated is the rows of one seed and what making them cost.
type generated struct {
	blocks     []*ch.Block
	rowsPerSec float64
}

func generate(s Schema, seed uint64, batch int, rows int64) generated {
	n := event.RingSize(batch, rows)
	start := time.Now()
	blocks := s.Ring(seed, batch, n)
	g := generated{blocks: blocks}
	if secs := time.Since(start).Seconds(); secs > 0 {
		g.rowsPerSec = float64(n*batch) / secs
	}
	return g
}

// runner measures one client.
type runner struct {
	c      Config
	name   string
	server ch.Version
	admin  *Admin
	rings  map[ringKey]generated // shared by the plan's steps, run one at a time
}

// ringKey names the rows of one seed cut in blocks of one batch size.
type ringKey struct {
	seed  uint64
	batch int
}

// adminTimeout bounds dbmeter's own statements (counts), which must run
// even after an interrupt so the rows are accounted for.
const adminTimeout = time.Minute

// countWait is how long the final count waits for a server that went away
// during the run; after it the rows are left unverified.
const countWait = 5 * time.Second

// run measures one repetition and reconciles the rows.
func (r *runner) run(ctx context.Context, rep plan.Rep) ([]result.Run, error) {
	c := r.c
	cl, _ := Lookup(r.name)
	opts := Options{DSN: c.DSN, Batch: c.Batch, BlocksPerInsert: c.BlocksPerInsert, NoDelay: c.NoDelay}
	var warnings []string
	if c.BlocksPerInsert > 1 && !cl.Streams {
		opts.BlocksPerInsert = 1
		warnings = append(warnings, fmt.Sprintf("%d blocks per INSERT not honoured: %s cannot stream several blocks through one INSERT, so each block was an INSERT of its own", c.BlocksPerInsert, r.name))
	}
	if !c.NoDelay && !cl.NoDelay {
		warnings = append(warnings, fmt.Sprintf("TCP_NODELAY off not honoured: %s has no way to set it", r.name))
	}
	cfg, err := c.LoadConfig()
	if err != nil {
		return nil, err
	}
	cfg.Seed = rep.Seed
	ring, ok := r.rings[ringKey{rep.Seed, c.Batch}]
	if !ok {
		// One ring at a time (about 150 MB): the steps of a variant run
		// one after another within a repetition, and share it.
		clear(r.rings)
		ring = generate(c.schema(), rep.Seed, c.Batch, c.Rows)
		r.rings[ringKey{rep.Seed, c.Batch}] = ring
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), adminTimeout)
	defer cancel()
	before, err := r.admin.Count(actx, c.Table)
	if err != nil {
		return nil, err
	}
	blocks := ring.blocks
	var ext *externalRun
	if cl.External != nil {
		if ext, blocks, err = startExternal(ctx, c, r.name, cl, blocks, cfg.Workers); err != nil {
			return nil, err
		}
		defer ext.close()
		opts.Workers, cfg = ext.pool, externalPhases(cfg)
		if c.NoDelay && !cl.NoDelay {
			warnings = append(warnings, fmt.Sprintf("TCP_NODELAY not honoured: %s's library never sets it, so Nagle's algorithm was on", r.name))
		}
	}
	wl := NewWorkload(cl, opts, c.Table, blocks, c.Rows)
	res, err := load.Run(ctx, cfg, Ops, wl.NewWorker, rep.Watch)
	if err != nil {
		return nil, err
	}
	run := r.record(res, cfg, rep, opts, wl, ring, ext, warnings)
	x := FigureDeclarations()
	after, err := r.countAfter(actx)
	if err != nil {
		// What was measured stands; only the reconciliation is missing.
		x.Set(&run, "rows_unverified", 1)
		run.Warnings = append(run.Warnings, fmt.Sprintf("rows not verified: %v; the server acknowledged %d rows (%d more uncertain)", err, wl.Acked(), wl.Uncertain()))
		return []result.Run{run}, fmt.Errorf("rows not verified: %w", err)
	}
	if c.Engine == EngineNull {
		// A Null table keeps nothing: there is no count to reconcile with.
		x.Set(&run, "rows_acknowledged", float64(wl.Acked()))
		x.Set(&run, "rows_unverified", 1)
		return []result.Run{run}, nil
	}
	Reconcile(&run, c.Table, wl.Acked(), after-before, wl.Uncertain())
	return []result.Run{run}, nil
}

// record is the run res measured, with the settings it ran under, the
// figures of the rows it inserted and warnings.
func (r *runner) record(res *load.Result, cfg load.Config, rep plan.Rep, opts Options, wl *Workload, ring generated, ext *externalRun, warnings []string) result.Run {
	c := r.c
	params := maps.Clone(c.Params)
	if params == nil {
		params = map[string]string{}
	}
	params["table"] = c.Table.Plain()
	params["clients"] = r.name
	// A row count became a count of blocks: record what the run did.
	params["count"], params["duration"] = strconv.FormatInt(cfg.Count, 10), cfg.Duration.String()
	params[result.SettingBlocksPerInsert] = strconv.Itoa(opts.BlocksPerInsert)
	params["module"] = module(r.name)
	if c.DSN.Compress != "" {
		params["compress"] = c.DSN.Compress // a defining setting: blocks compressed on the wire
	}
	run := res.Fill(result.Run{Family: "ch", Target: r.name, Workload: Op, Params: params, Server: r.server.String(), Repeat: rep.N}, cfg, 0)
	x := FigureDeclarations()
	x.Set(&run, "rows_acknowledged", float64(wl.Acked()))
	x.Set(&run, "rows_uncertain", float64(wl.Uncertain()))
	x.Set(&run, "build_s", float64(run.Phases["build"].TotalNs)/1e9)
	x.Set(&run, "send_s", float64(run.Phases["send"].TotalNs)/1e9)
	x.Set(&run, "generator_rows_s", ring.rowsPerSec)
	if run.Rows > 0 {
		// The client's CPU: dbmeter's own and, for a client in another
		// language, its worker processes', so that clients compare.
		x.Set(&run, "client_cpu_us_per_row", (run.Client.CPUS+run.Client.WorkersCPUS)*1e6/float64(run.Rows))
		if ext != nil {
			x.Set(&run, "workers_cpu_us_per_row", run.Client.WorkersCPUS*1e6/float64(run.Rows))
		}
		x.Set(&run, "allocs_per_row", float64(run.Client.Allocs)/float64(run.Rows))
		x.Set(&run, "bytes_per_row", float64(run.Bytes)/float64(run.Rows))
	}
	run.Warnings = append(run.Warnings, warnings...)
	if ext != nil {
		extworker.Fill(&run, ext.pool)
		x.Set(&run, "worker_start_ms", float64(ext.start.Microseconds())/1e3/float64(max(cfg.Workers, 1)))
	}
	return run
}

// countAfter counts the table's rows, waiting up to countWait for a server
// that is coming back.
func (r *runner) countAfter(ctx context.Context) (int64, error) {
	deadline := time.Now().Add(countWait)
	for {
		n, err := r.admin.Count(ctx, r.c.Table)
		if err == nil || load.Classify(err) != load.KindConnection || time.Now().After(deadline) {
			return n, err
		}
		select {
		case <-time.After(250 * time.Millisecond):
		case <-ctx.Done():
			return n, err
		}
	}
}

// Reconcile records the rows the table gained against those the server
// acknowledged: every acknowledged row must be there; of the uncertain ones
// (INSERTs that failed after sending), any number may be. A mismatch is an
// error of kind lost_rows or extra_rows.
func Reconcile(run *result.Run, t Table, acked, counted, uncertain int64) {
	if run.ErrorKinds == nil {
		run.ErrorKinds = map[string]int64{}
	}
	x := FigureDeclarations()
	x.Set(run, "rows_acknowledged", float64(acked))
	x.Set(run, "rows_counted", float64(counted))
	x.Set(run, "rows_uncertain", float64(uncertain))
	switch {
	case counted < acked:
		run.Errors++
		run.ErrorKinds["lost_rows"]++
		run.Warnings = append(run.Warnings, fmt.Sprintf("row count mismatch: the server acknowledged %d rows but %s gained %d (%d missing)",
			acked, t.Plain(), counted, acked-counted))
	case counted > acked+uncertain:
		run.Errors++
		run.ErrorKinds["extra_rows"]++
		run.Warnings = append(run.Warnings, fmt.Sprintf("row count mismatch: the server acknowledged %d rows (%d more uncertain) but %s gained %d; another writer to the table would cause this",
			acked, uncertain, t.Plain(), counted))
	case uncertain > 0:
		run.Warnings = append(run.Warnings, fmt.Sprintf("%d rows were in INSERTs that failed after sending them; %d of them landed (acknowledged rows all reconcile)",
			uncertain, counted-acked))
	}
}

// FigureDeclarations declares the extra figures an insert run writes, with
// how the shards of one test merge them.
func FigureDeclarations() result.Declarations {
	d := result.Declarations{
		"rows_acknowledged": result.Sum("rows"),
		"rows_counted":      result.Sum("rows"),
		"rows_uncertain":    result.Sum("rows"),
		// 1 when a shard could not count its table: the merged test is
		// unverified if any shard is.
		"rows_unverified":        result.Max("flag"),
		"build_s":                result.Sum("s"),
		"send_s":                 result.Sum("s"),
		"generator_rows_s":       result.Sum("rows/s"),
		"client_cpu_us_per_row":  result.Mean("µs", "rows"),
		"workers_cpu_us_per_row": result.Mean("µs", "rows"),
		"allocs_per_row":         result.Mean("allocations", "rows"),
		"bytes_per_row":          result.Mean("bytes", "rows"),
		// An external client's start-up per worker process (startExternal).
		"worker_start_ms": result.Max("ms"),
	}
	maps.Copy(d, extworker.FigureDeclarations())
	return d
}
