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
	Clients, Jobs      int
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
	Load    load.Config
	runs    int // runs started so far, for the -l file names
	Secrets []string
	// clients of this shard, the first one's id, and the whole test's.
	clients, clientOffset, totalClients int
	Search                              *capacity.Search
}

// Prepare checks the command line, as pgbench does, before anything
// connects. args are the positional arguments (the database name). Every
// error is a mistake on the command line; it names fields as {Field} (see
// usage.Spell).
func (f *Command) Prepare(args []string) (*Prepared, error) {
	if err := f.Validate(); err != nil {
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
	p.Load = f.loadConfig()
	if err := f.shardPlan(p); err != nil {
		return nil, err
	}
	if err := p.Load.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// shardPlan gives this shard its clients (ids running on from the lower
// shards'), its part of -R, and the common start.
func (f *Command) shardPlan(p *Prepared) error {
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
		cfg := &p.Load
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
		p.Load.StartAt = t
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

// Plan is one step per server × driver; each server is checked and sized
// once, by its first step.
func (f *Command) Plan(p *Prepared) plan.Plan {
	targets := TargetNames(p.dsns)
	params := f.Params
	out := plan.Plan{Family: "pg", Seed: p.Load.Seed, Search: p.Search}
	var ops []string
	for _, w := range p.scripts {
		ops = append(ops, w.Name)
	}
	for i, dsn := range p.dsns {
		var srv *Server
		for _, drv := range p.drivers {
			out.Steps = append(out.Steps, plan.Step{Target: targets[i] + "/" + drv, Workload: WorkloadName(p.scripts), Ops: ops,
				Run: func(ctx context.Context, r plan.Rep) ([]result.Run, error) {
					if srv == nil {
						var err error
						if srv, err = PrepareServer(ctx, dsn, targets[i], p.builtin, f.Scale, f.given("Scale"), f.Stderr); err != nil {
							return nil, err
						}
					}
					run, err := f.runOne(ctx, p, r, srv, drv, params)
					if err != nil {
						return nil, err
					}
					return []result.Run{run}, nil
				}})
		}
	}
	return out
}

func (f *Command) runOne(ctx context.Context, p *Prepared, r plan.Rep, srv *Server, drvName string, params map[string]string) (result.Run, error) {
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
		Seed: f.Seed, Throttled: p.Load.Rate > 0 || p.Search != nil, Clients: p.clients, ClientOffset: p.clientOffset, TotalClients: p.totalClients, Threads: min(f.Jobs, p.clients),
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
		if len(p.dsns)*len(p.drivers) > 1 {
			suffix = " [" + target + "]"
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
	cfg := p.Load
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
		Repeat:   1,
	}, cfg, -1)
	if stats != nil {
		run.ServerStats = stats.finish(ctx, run.Ops+run.Errors)
	}
	bench.Describe(&run, res, cfg, Figures{Server: srv, Driver: drvName, Jobs: f.Jobs})
	return run, nil
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
