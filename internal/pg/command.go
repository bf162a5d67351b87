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
	"github.com/dbmeter/dbmeter/internal/pg/script"
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
	mode    QueryMode
	scripts []Weighted
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

// Prepare checks the command line, as pgbench does, before anything
// connects. args are the positional arguments (the database name). Every
// error is a mistake on the command line; it names fields as {Field} (see
// usage.Spell).
func (f *Command) Prepare(args []string) (*Prepared, error) {
	cmds, err := f.sweep()
	if err != nil {
		return nil, err
	}
	mode, err := ParseMode(f.Protocol)
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
	for i, d := range p.dsns {
		p.dsns[i] = WithConnectTimeout(d, f.ConnectTimeout)
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

// shardPlan gives this shard its clients (ids running on from the lower
// shards'), its part of -R, and the common start.
func (f *Command) shardPlan(p *point) error {
	p.clients, p.totalClients = f.Clients, f.Clients
	if f.Shard != "" {
		sh, err := load.ParseShard(f.Shard)
		if err != nil {
			return fmt.Errorf("{Shard} %w", err)
		}
		if f.Clients < sh.Count {
			return fmt.Errorf("{Clients} %d cannot be divided among %d shards: give at least %d", f.Clients, sh.Count, sh.Count)
		}
		for i := range sh.Index {
			p.clientOffset += int(load.Shard{Index: i, Count: sh.Count}.Split(int64(f.Clients)))
		}
		p.clients = int(sh.Split(int64(f.Clients)))
		cfg := &p.load
		cfg.Shard, cfg.Workers, cfg.MaxInFlight = sh, p.clients, p.clients
		cfg.Rate /= float64(sh.Count)
		if cfg.Count > 0 {
			cfg.Count = int64(f.PerClient) * int64(p.clients) // -t is per client
		}
	}
	if f.StartAt != "" {
		t, err := load.ParseStartAt(f.StartAt, time.Now())
		if err != nil {
			return fmt.Errorf("{StartAt} %w", err)
		}
		p.load.StartAt = t
	}
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
	ic := InitConfig{Scale: f.Scale, Fillfactor: f.Fillfactor, Steps: steps, Force: f.Force, Log: f.Stderr,
		Quiet: f.QuietInit || quiet, Partitions: f.Partitions, PartitionMethod: f.PartitionMethod, Unlogged: f.Unlogged,
		Tablespace: f.Tablespace, IndexTablespace: f.IndexTablespace}
	if err := ic.Validate(); err != nil {
		return usage.Wrap(err)
	}
	return redact.Err(InitServers(ctx, p.dsns, ic, f.Stderr), p.Secrets...)
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
		var srv *Server
		for _, drv := range p.drivers {
			for _, pt := range p.points {
				out.Steps = append(out.Steps, plan.Step{Target: targets[i] + "/" + drv + p.variantLabel(pt), Workload: WorkloadName(p.scripts), Ops: ops,
					Run: func(ctx context.Context, r plan.Rep) ([]result.Run, error) {
						if srv == nil {
							var err error
							if srv, err = PrepareServer(ctx, dsn, targets[i], p.builtin, f.Scale, f.given("Scale"), f.Stderr); err != nil {
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
// driver.
func (f *Command) runOne(ctx context.Context, p *Prepared, pt point, r plan.Rep, srv *Server, drvName string) (result.Run, error) {
	params := f.variantParams()
	drv, _ := LookupDriver(drvName)
	vars := map[string]script.Value{"scale": script.Int(srv.Scale)}
	for k, v := range p.vars {
		vars[k] = v
	}
	defer func() { p.runs++ }()
	// The run's own backends are the ones with this name, for the server
	// figures' wait-event samples.
	app := fmt.Sprintf("dbmeter-%d-%d", os.Getpid(), p.runs)
	bench, err := NewBench(Config{Driver: drv, DSN: WithApplicationName(srv.DSN, app), Mode: p.mode, Scripts: p.scripts, Vars: vars,
		Seed: r.Seed, Throttled: pt.load.Rate > 0 || p.Search != nil, Clients: pt.clients, ClientOffset: pt.clientOffset, TotalClients: pt.totalClients, Threads: min(f.Jobs, pt.clients),
		Debug: f.Stderr, Timed: f.given("Seconds") || p.Search != nil,
		MaxTries: maxTries(f.MaxTries), LatencyLimit: f.LatencyLimit, VerboseErrors: verboseTo(f.VerboseErrors, f.Stderr),
		ConnectPerTx: f.Connect, PerCommand: f.PerCommand, Log: f.txLog(p.runs)})
	if err != nil {
		return result.Run{}, usage.Wrap(err)
	}
	if !f.NoVacuum {
		if err := PreRunVacuum(ctx, srv, f.VacuumAll, f.Force, f.Stderr); err != nil {
			return result.Run{}, err
		}
	}
	target := srv.Target + "/" + drvName
	var watch load.Watcher
	if f.Progress > 0 {
		suffix := ""
		if len(p.dsns)*len(p.drivers)*len(p.points) > 1 || f.Repeat > 1 {
			suffix = fmt.Sprintf(" [%s%s #%d]", target, p.variantLabel(pt), r.N)
		}
		watch = NewProgress(f.Stderr, suffix, f.Rate > 0, f.ProgressStamp)
	}
	if mw := r.Watch; mw != nil {
		if watch != nil {
			watch = load.Watchers{watch, mw}
		} else {
			watch = mw
		}
	}
	cfg := pt.load
	cfg.Seed = r.Seed
	if r.Rate > 0 { // a capacity search step
		cfg.Rate, cfg.Queue = r.Rate, RateQueue(r.Rate)
		params = maps.Clone(params)
		params["rate"] = strconv.FormatFloat(r.Rate, 'f', -1, 64)
	}
	var stats *statsCapture
	var starting sync.WaitGroup
	if !f.NoServerStats {
		// Outside the measured window: before it, or, after a warm-up, when
		// it begins (the server then also counts the few transactions in
		// flight at that instant).
		begin := func() {
			var err error
			if stats, err = startStats(ctx, srv.DSN, app, f.serverStatsInterval()); err != nil {
				fmt.Fprintf(f.Stderr, "dbmeter pg: %s: %s; measuring without them\n", target, redact.Line(redact.Err(err, p.Secrets...)))
			}
		}
		if cfg.Warmup == 0 {
			begin()
		} else {
			// OnMeasure must not block the runner.
			cfg.OnMeasure = func() { starting.Go(begin) }
		}
	}
	res, err := load.Run(ctx, cfg, bench.Ops(), bench.NewWorker, watch)
	starting.Wait()
	if err != nil {
		if stats != nil {
			stats.finish(ctx, 0)
		}
		return result.Run{}, fmt.Errorf("%s: %w", target, startError(srv.DSN, err))
	}
	if err := bench.CloseLogs(); err != nil {
		return result.Run{}, fmt.Errorf("%s: transaction log: %w", target, err)
	}
	if err := bench.LastError(); err != nil && len(bench.Aborts()) == 0 {
		// The counts say how many failed; this says why, once.
		fmt.Fprintf(f.Stderr, "dbmeter pg: %s: last transaction error: %s\n", target, redact.Line(redact.Err(err, p.Secrets...)))
	}
	for _, a := range bench.Aborts() {
		fmt.Fprintf(f.Stderr, "dbmeter pg: %s: %s\n", target, redact.Err(errors.New(a), p.Secrets...))
	}
	run := res.Fill(result.Run{
		Family:   "pg",
		Target:   target,
		Workload: WorkloadName(p.scripts),
		Params:   maps.Clone(params),
		Server:   "PostgreSQL " + srv.Version,
		Repeat:   r.N,
	}, cfg, -1)
	if stats != nil {
		run.ServerStats = stats.finish(ctx, run.Ops+run.Errors)
	}
	bench.Describe(&run, res, cfg, Figures{Server: srv, Driver: drvName, Jobs: f.Jobs})
	return run, nil
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
	return DefaultServerStatsInterval
}

// txLog is -l, or nil.
func (f *Command) txLog(run int) *TxLog {
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
	if Classify(err) == load.KindConnection || SQLState(err) != "" {
		return ConnectError(dsn, err)
	}
	return err
}

// Endpoints names the servers the command connects to, as Endpoint does
// ("host:port" or "/socket/dir:port"), for a caller that must know which
// server it is (a storage profile placing it in a cgroup).
func (p *Prepared) Endpoints() ([]string, error) {
	var out []string
	for _, d := range p.dsns {
		hp, _, err := Endpoint(d)
		if err != nil {
			return nil, err
		}
		out = append(out, hp)
	}
	return out, nil
}
