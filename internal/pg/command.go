package pg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/bench"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/initdb"
	"github.com/dbmeter/dbmeter/internal/pg/script"
	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/pg/serverstats"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Command is `dbmeter pg` as plain data: pgbench's options by pgbench's
// meaning, and dbmeter's own. The CLI binds its flags to these fields.
type Command struct {
	// Clients and Jobs are -c and -j. Given as lists (ClientsList,
	// JobsList), every combination is a variant of its own: a sweep.
	Clients, Jobs         int
	ClientsList, JobsList []int
	// Repeat runs every variant this many times, interleaved (see Plan).
	Repeat             int
	Seconds, PerClient int
	Progress           int
	Rate               float64
	// LatencyLimit is -L: 0 for none.
	LatencyLimit                    time.Duration
	Protocol                        string
	Scale                           int64
	Fillfactor                      int
	Initialize                      bool
	InitSteps                       string
	ForeignKeys, NoVacuum           bool
	SimpleUpdate, SelectOnly        bool
	Builtins, Files, Defines        []string
	Seed                            uint64
	SeedSpec, ShowScript            string
	ProgressStamp                   bool
	MaxTries                        int
	Connect, PerCommand, Log        bool
	LogPrefix                       string
	SamplingRate                    float64
	AggInterval                     int
	VacuumAll, QuietInit            bool
	Partitions                      int
	PartitionMethod                 string
	Unlogged                        bool
	Tablespace, IndexTablespace     string
	VerboseErrors, FailuresDetailed bool
	DSNs, Drivers                   []string
	ConnectTimeout                  time.Duration
	Host, Port, User                string
	Force                           bool
	Warmup, Grace                   time.Duration
	// NoServerStats turns off reading the server's own figures
	// (pg_stat_statements, pg_stat_database, wait events);
	// ServerStatsInterval is how often wait events are sampled.
	NoServerStats       bool
	ServerStatsInterval time.Duration
	Shard, StartAt      string
	// StorageProfile is the storage class the run's server runs under
	// ("" for none), StorageServer the cluster it places.
	StorageProfile, StorageServer string
	// Outputs says the run's result is asked for in files, which -i,
	// writing none, refuses.
	Outputs bool
	// Given says whether the user set a field of this Command (by the
	// field's name); nil means none was.
	Given func(field string) bool
	// Getenv reads PG* variables; Stderr gets pgbench's messages.
	Getenv func(string) string
	Stderr io.Writer
	// Params are the settings every run records.
	Params map[string]string
}

func (f *Command) given(name string) bool { return f.Given != nil && f.Given(name) }

// Prepared is a checked command line, ready to plan.
type Prepared struct {
	dsns    []string
	drivers []string
	mode    driver.QueryMode
	scripts []bench.Weighted
	builtin bool // some script is built in, so the pgbench tables must exist
	vars    map[string]script.Value
	// points are the variants the numeric lists ask for (one when none
	// is a list): each its own -c and -j and load.
	points  []point
	runs    int // runs started so far, for the -l file names
	Secrets []string
	Search  *capacity.Search
}

// point is one combination of -c and -j: the command as if given those
// values alone.
type point struct {
	cmd  *Command
	load load.Config
	// clients of this shard, the first one's id, and the whole test's.
	clients, clientOffset, totalClients int
}

// Load is the load of the first variant, which a capacity search adjusts;
// a search runs only a plan of one variant.
func (p *Prepared) Load() *load.Config { return &p.points[0].load }

// Variants is how many combinations of the numeric lists will run.
func (p *Prepared) Variants() int { return len(p.points) }

// Searching gives p the capacity search s (nil: none), which finds one
// rate, so for one variant.
func (p *Prepared) Searching(s *capacity.Search) error {
	if s != nil && p.Variants() > 1 {
		return usage.Errorf("{Find} searches one {Clients} and {Jobs} at a time: give each one value")
	}
	p.Search = s
	return nil
}

// Prepare checks the command line, as pgbench does, before anything
// connects. args are the positional arguments (the database name). Every
// error is a mistake on the command line; it names fields as {Field} (see
// usage.Spell).
func (f *Command) Prepare(args []string) (*Prepared, error) {
	cmds, err := f.sweep()
	if err != nil {
		return nil, err
	}
	mode, err := driver.ParseMode(f.Protocol)
	if err != nil {
		return nil, err
	}
	if f.Seed, err = ParseSeed(f.SeedSpec); err != nil {
		return nil, err
	}
	p := &Prepared{mode: mode}
	spec := ServerSpec{DSNs: f.DSNs, Host: f.Host, Port: f.Port, User: f.User, Getenv: f.Getenv}
	if len(args) == 1 {
		spec.DBName = args[0]
	}
	if p.dsns, p.Secrets, err = Servers(spec); err != nil {
		return nil, err
	}
	if f.StorageProfile != "" && len(p.dsns) != 1 {
		return nil, errors.New("{StorageProfile} applies to one server at a time: give one {DSNs}")
	}
	for i, d := range p.dsns {
		p.dsns[i] = server.WithConnectTimeout(d, f.ConnectTimeout)
	}
	if p.drivers, err = ParseDrivers(f.Drivers); err != nil {
		return nil, err
	}
	var defined []string
	if p.vars, defined, err = ParseDefines(f.Defines); err != nil {
		return nil, err
	}
	if !f.Initialize {
		p.scripts, p.builtin, err = LoadScripts(ScriptSpec{Builtins: f.Builtins, Files: f.Files,
			SelectOnly: f.SelectOnly, SimpleUpdate: f.SimpleUpdate, Defined: defined})
		if err != nil {
			return nil, err
		}
	}
	for _, c := range cmds {
		c.Seed = f.Seed
		pt := point{cmd: c, load: c.loadConfig()}
		if err := c.shardPlan(&pt); err != nil {
			return nil, err
		}
		if err := pt.load.Validate(); err != nil {
			return nil, err
		}
		p.points = append(p.points, pt)
	}
	return p, nil
}

// sweep is the command once per combination of the -c and -j lists, -c
// varying slowest, each checked as pgbench checks one.
func (f *Command) sweep() ([]*Command, error) {
	if f.given("Repeat") && f.Repeat < 1 {
		return nil, fmt.Errorf("{Repeat} must be at least 1, got %d", f.Repeat)
	}
	clients, jobs := f.ClientsList, f.JobsList
	if len(clients) == 0 {
		clients = []int{f.Clients}
	}
	if len(jobs) == 0 {
		jobs = []int{f.Jobs}
	}
	var out []*Command
	for _, ix := range plan.Cross(len(clients), len(jobs)) {
		c := *f
		c.Clients, c.Jobs = clients[ix[0]], jobs[ix[1]]
		if err := c.Validate(); err != nil {
			return nil, err
		}
		out = append(out, &c)
	}
	return out, nil
}

// shardPlan gives this shard its part of the test's clients, numbered on
// from the lower shards' (pgbench's client ids), of -R and of -t (per
// client), and the common start. The clients are load's workers, a fixed
// pool in open loop too (load.ForPoolShard).
func (f *Command) shardPlan(p *point) error {
	spec := load.ShardSpec{Shard: f.Shard, StartAt: f.StartAt, Pool: true}
	cfg, first, err := spec.Apply(p.load, time.Now())
	if err != nil {
		return err
	}
	p.load, p.clientOffset, p.clients, p.totalClients = cfg, first, cfg.Workers, f.Clients
	return nil
}

// Init runs -i on every server; quiet is -q (or dbmeter's --quiet).
func (f *Command) Init(ctx context.Context, p *Prepared, quiet bool) error {
	steps := f.InitSteps
	if f.NoVacuum {
		steps = strings.ReplaceAll(steps, "v", "")
	}
	if f.ForeignKeys && !strings.Contains(steps, "f") {
		steps += "f"
	}
	ic := initdb.Config{Scale: f.Scale, Fillfactor: f.Fillfactor, Steps: steps, Force: f.Force, Log: f.Stderr,
		Quiet: f.QuietInit || quiet, Partitions: f.Partitions, PartitionMethod: f.PartitionMethod, Unlogged: f.Unlogged,
		Tablespace: f.Tablespace, IndexTablespace: f.IndexTablespace}
	if err := ic.Validate(); err != nil {
		return usage.Wrap(err)
	}
	return redact.Err(initdb.Servers(ctx, p.dsns, ic, f.Stderr), p.Secrets...)
}

// Plan is one step per server × driver × variant of the numeric lists;
// each server is checked and sized once, by its first step. Repetitions are
// interleaved: every step once, then every step again, so that the
// variants of a comparison see the same moments of the machine and a load
// that comes and goes lands on all of them alike.
func (f *Command) Plan(p *Prepared) plan.Plan {
	targets := TargetNames(p.dsns)
	out := plan.Plan{Family: "pg", Seed: f.Seed, Search: p.Search, Repeat: f.Repeat, Interleave: true}
	var ops []string
	for _, w := range p.scripts {
		ops = append(ops, w.Name)
	}
	for i, dsn := range p.dsns {
		var srv *server.Server
		for _, drv := range p.drivers {
			for _, pt := range p.points {
				out.Steps = append(out.Steps, plan.Step{Target: targets[i] + "/" + drv + p.variantLabel(pt), Workload: WorkloadName(p.scripts), Ops: ops,
					Run: func(ctx context.Context, r plan.Rep) ([]result.Run, error) {
						if srv == nil {
							var err error
							if srv, err = server.Prepare(ctx, dsn, targets[i], p.builtin, f.Scale, f.given("Scale"), f.Stderr); err != nil {
								return nil, err
							}
						}
						run, err := pt.cmd.runOne(ctx, p, pt, r, srv, drv)
						if err != nil {
							return nil, err
						}
						return []result.Run{run}, nil
					}})
			}
		}
	}
	return out
}

// variantLabel tells apart the steps of one server and driver in progress
// lines: " -c N -j M" when the numeric lists make several.
func (p *Prepared) variantLabel(pt point) string {
	if len(p.points) < 2 {
		return ""
	}
	return fmt.Sprintf(" clients=%d jobs=%d", pt.cmd.Clients, pt.cmd.Jobs)
}

// runOne measures repetition r of variant pt (f is pt.cmd) through one
// driver: pgbench's vacuum, then the run with the server's own figures
// read around its measured window, then the run's record.
func (f *Command) runOne(ctx context.Context, p *Prepared, pt point, r plan.Rep, srv *server.Server, drvName string) (result.Run, error) {
	defer func() { p.runs++ }()
	// The run's own backends are the ones with this name, for the server
	// figures' wait-event samples.
	app := fmt.Sprintf("dbmeter-%d-%d", os.Getpid(), p.runs)
	b, err := f.newBench(p, pt, r, srv, drvName, app)
	if err != nil {
		return result.Run{}, usage.Wrap(err)
	}
	if !f.NoVacuum {
		if err := server.PreRunVacuum(ctx, srv, f.VacuumAll, f.Force, f.Stderr); err != nil {
			return result.Run{}, err
		}
	}
	target := srv.Target + "/" + drvName
	cfg, params := f.repConfig(pt, r)
	stats := f.startServerStats(ctx, p, srv, app, target, &cfg)
	res, err := load.Run(ctx, cfg, b.Ops(), b.NewWorker, f.watcher(p, pt, r, target))
	capture := stats()
	if err != nil {
		if capture != nil {
			capture.Finish(ctx, 0)
		}
		return result.Run{}, fmt.Errorf("%s: %w", target, startError(srv.DSN, err))
	}
	if err := b.CloseLogs(); err != nil {
		return result.Run{}, fmt.Errorf("%s: transaction log: %w", target, err)
	}
	f.sayFailures(p, target, b)
	run := res.Fill(result.Run{
		Family:   "pg",
		Target:   target,
		Workload: WorkloadName(p.scripts),
		Params:   params,
		Server:   "PostgreSQL " + srv.Version,
		Repeat:   r.N,
	}, cfg, -1)
	if capture != nil {
		run.ServerStats = capture.Finish(ctx, run.Ops+run.Errors)
	}
	b.Describe(&run, res, cfg, bench.Figures{DSN: srv.DSN, Scale: srv.Scale, Driver: drvName, Jobs: f.Jobs})
	return run, nil
}

// newBench is the Bench of one run: this variant's clients, through
// driver drvName, on srv, its connections named app.
func (f *Command) newBench(p *Prepared, pt point, r plan.Rep, srv *server.Server, drvName, app string) (*bench.Bench, error) {
	drv, err := driver.Lookup(drvName)
	if err != nil {
		return nil, err
	}
	vars := map[string]script.Value{"scale": script.Int(srv.Scale)}
	maps.Copy(vars, p.vars)
	return bench.NewBench(bench.Config{Driver: drv, DSN: server.WithApplicationName(srv.DSN, app), Mode: p.mode, Scripts: p.scripts, Vars: vars,
		Seed: r.Seed, Throttled: pt.load.Rate > 0 || p.Search != nil, Clients: pt.clients, ClientOffset: pt.clientOffset, TotalClients: pt.totalClients, Threads: min(f.Jobs, pt.clients),
		Debug: f.Stderr, Timed: f.given("Seconds") || p.Search != nil,
		MaxTries: maxTries(f.MaxTries), LatencyLimit: f.LatencyLimit, VerboseErrors: verboseTo(f.VerboseErrors, f.Stderr),
		ConnectPerTx: f.Connect, PerCommand: f.PerCommand, Log: f.txLog(p.runs)})
}

// repConfig is the load of repetition r and the settings its run
// records: a capacity search's step sets its own rate.
func (f *Command) repConfig(pt point, r plan.Rep) (load.Config, map[string]string) {
	cfg, params := pt.load, f.variantParams()
	cfg.Seed = r.Seed
	if r.Rate > 0 {
		cfg.Rate, cfg.Queue = r.Rate, bench.RateQueue(r.Rate)
		params["rate"] = strconv.FormatFloat(r.Rate, 'f', -1, 64)
	}
	return cfg, params
}

// watcher is what watches the run: pgbench's -P lines, suffixed with the
// step when the plan has several, and the plan's own watcher.
func (f *Command) watcher(p *Prepared, pt point, r plan.Rep, target string) load.Watcher {
	var ws load.Watchers
	if f.Progress > 0 {
		suffix := ""
		if len(p.dsns)*len(p.drivers)*len(p.points) > 1 || f.Repeat > 1 {
			suffix = fmt.Sprintf(" [%s%s #%d]", target, p.variantLabel(pt), r.N)
		}
		ws = append(ws, NewProgress(f.Stderr, suffix, f.Rate > 0, f.ProgressStamp))
	}
	if r.Watch != nil {
		ws = append(ws, r.Watch)
	}
	return ws.Watcher()
}

// startServerStats starts reading the server's own figures outside the
// measured window: before it, or, after a warm-up, when it begins (the
// server then also counts the few transactions in flight at that
// instant), through cfg's OnMeasure, which must not block the runner. The
// function it returns waits for the start and gives the capture, nil when
// there is none.
func (f *Command) startServerStats(ctx context.Context, p *Prepared, srv *server.Server, app, target string, cfg *load.Config) func() *serverstats.Capture {
	var stats *serverstats.Capture
	if f.NoServerStats {
		return func() *serverstats.Capture { return nil }
	}
	begin := func() {
		var err error
		if stats, err = serverstats.Start(ctx, srv.DSN, app, f.serverStatsInterval()); err != nil {
			fmt.Fprintf(f.Stderr, "dbmeter pg: %s: %s; measuring without them\n", target, redact.Line(redact.Err(err, p.Secrets...)))
		}
	}
	var starting sync.WaitGroup
	if cfg.Warmup == 0 {
		begin()
	} else {
		cfg.OnMeasure = func() { starting.Go(begin) }
	}
	return func() *serverstats.Capture {
		starting.Wait()
		return stats
	}
}

// sayFailures tells why transactions failed, once (the counts say how
// many), and why each aborted client was aborted.
func (f *Command) sayFailures(p *Prepared, target string, b *bench.Bench) {
	if err := b.LastError(); err != nil && len(b.Aborts()) == 0 {
		fmt.Fprintf(f.Stderr, "dbmeter pg: %s: last transaction error: %s\n", target, redact.Line(redact.Err(err, p.Secrets...)))
	}
	for _, a := range b.Aborts() {
		fmt.Fprintf(f.Stderr, "dbmeter pg: %s: %s\n", target, redact.Err(errors.New(a), p.Secrets...))
	}
}

// variantParams are the settings a run of this variant records: the
// command's, with -c and -j as this variant's single values rather than
// the lists typed.
func (f *Command) variantParams() map[string]string {
	params := maps.Clone(f.Params)
	if params == nil {
		params = map[string]string{}
	}
	params["client"], params["jobs"] = strconv.Itoa(f.Clients), strconv.Itoa(f.Jobs)
	return params
}

func (f *Command) serverStatsInterval() time.Duration {
	if f.ServerStatsInterval > 0 {
		return f.ServerStatsInterval
	}
	return serverstats.DefaultInterval
}

// txLog is -l, or nil.
func (f *Command) txLog(run int) *bench.TxLog {
	if !f.Log {
		return nil
	}
	return FileTxLog(f.LogPrefix, run, time.Duration(f.AggInterval)*time.Second, f.SamplingRate)
}

// maxTries maps pgbench's --max-tries (0: unlimited) to Config's.
func maxTries(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

func verboseTo(on bool, w io.Writer) io.Writer {
	if on {
		return w
	}
	return nil
}

// startError explains a client that could not connect at the start.
func startError(dsn string, err error) error {
	if driver.Classify(err) == load.KindConnection || driver.SQLState(err) != "" {
		return server.ConnectError(dsn, err)
	}
	return err
}

// Endpoints names the servers the command connects to, as server.Endpoint does
// ("host:port" or "/socket/dir:port"), for a caller that must know which
// server it is (a storage profile placing it in a cgroup).
func (p *Prepared) Endpoints() ([]string, error) {
	var out []string
	for _, d := range p.dsns {
		hp, _, err := server.Endpoint(d)
		if err != nil {
			return nil, err
		}
		out = append(out, hp)
	}
	return out, nil
}
