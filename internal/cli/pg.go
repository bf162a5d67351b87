package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg"
	"github.com/dbmeter/dbmeter/internal/pg/script"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
)

// pgFlags are pgbench's options, spelled as pgbench spells them, plus
// dbmeter's own (--dsn, --driver, --force, output flags).
type pgFlags struct {
	clients, jobs    int
	seconds, perCli  int
	progress         int
	rate, latencyMS  float64
	protocol         string
	scale            int64
	fillfactor       int
	initialize       bool
	initSteps        string
	foreignKeys      bool
	noVacuum         bool
	simpleUpdate     bool
	selectOnly       bool
	builtins, files  []string
	defines          []string
	seed             uint64
	seedSpec         string
	showScript       string
	progressStamp    bool
	maxTries         int
	connect          bool
	perCommand       bool
	log              bool
	logPrefix        string
	samplingRate     float64
	aggInterval      int
	vacuumAll        bool
	quietInit        bool
	partitions       int
	partitionMethod  string
	unlogged         bool
	tablespace       string
	indexTablespace  string
	verboseErrors    bool
	failuresDetailed bool
	dsns, drivers    []string
	connectTimeout   time.Duration
	host, port, user string
	force            bool
	warmup, grace    time.Duration
	output           outputFlags
	shard, startAt   string
	search           searchFlags
	fs               *pflag.FlagSet
}

func (f *pgFlags) bind(fs *pflag.FlagSet) {
	f.fs = fs
	fs.Bool("help", false, "help for pg")
	fs.IntVarP(&f.clients, "client", "c", 1, "number of concurrent database clients (sessions)")
	fs.IntVarP(&f.jobs, "jobs", "j", 1, "number of threads, as pgbench (must not exceed -c; Go schedules the clients on GOMAXPROCS threads)")
	fs.IntVarP(&f.seconds, "time", "T", 0, "duration of the benchmark in seconds")
	fs.IntVarP(&f.perCli, "transactions", "t", 10, "number of transactions each client runs (default when -T is not given)")
	fs.IntVarP(&f.progress, "progress", "P", 0, "show a pgbench progress line every NUM seconds")
	fs.Float64VarP(&f.rate, "rate", "R", 0, "target rate in transactions per second (open loop, latency from the scheduled start)")
	fs.Float64VarP(&f.latencyMS, "latency-limit", "L", 0, "count transactions lasting more than NUM ms as late (with -R, skip those already that late)")
	fs.StringVarP(&f.protocol, "protocol", "M", "simple", "query mode: simple, extended or prepared")
	fs.Int64VarP(&f.scale, "scale", "s", 1, "scaling factor (-i: rows to create; runs: read from pgbench_branches when not given)")
	fs.IntVarP(&f.fillfactor, "fillfactor", "F", 100, "-i: fill factor of the tables")
	fs.BoolVarP(&f.initialize, "initialize", "i", false, "initialise the pgbench tables and exit")
	fs.StringVarP(&f.initSteps, "init-steps", "I", "dtgvp", "-i: steps to run: d drop, t create, g generate (COPY), G generate on the server, v vacuum, p primary keys, f foreign keys")
	fs.BoolVar(&f.foreignKeys, "foreign-keys", false, "-i: create foreign keys between the tables")
	fs.BoolVarP(&f.quietInit, "quiet-init", "q", false, "-i: a progress line every 5 seconds instead of every 100000 rows (pgbench's -q; with -i, --quiet does the same)")
	fs.IntVar(&f.partitions, "partitions", 0, "-i: partition pgbench_accounts into NUM partitions")
	fs.StringVar(&f.partitionMethod, "partition-method", "", "-i: range (default with --partitions) or hash")
	fs.BoolVar(&f.unlogged, "unlogged-tables", false, "-i: create the tables UNLOGGED")
	fs.StringVar(&f.tablespace, "tablespace", "", "-i: create the tables in this tablespace")
	fs.StringVar(&f.indexTablespace, "index-tablespace", "", "-i: create the primary keys in this tablespace")
	fs.BoolVarP(&f.noVacuum, "no-vacuum", "n", false, "do not vacuum before the run (-i: skip the vacuum step)")
	fs.BoolVarP(&f.simpleUpdate, "skip-some-updates", "N", false, "run the simple-update built-in script (-b simple-update)")
	fs.BoolVarP(&f.selectOnly, "select-only", "S", false, "run the select-only built-in script (-b select-only)")
	fs.StringArrayVarP(&f.builtins, "builtin", "b", nil, "built-in script NAME[@WEIGHT]: tpcb-like, simple-update, select-only (repeatable)")
	fs.StringArrayVarP(&f.files, "file", "f", nil, "script FILE[@WEIGHT] in pgbench's format (repeatable)")
	fs.StringArrayVarP(&f.defines, "define", "D", nil, "define a script variable NAME=VALUE (repeatable)")
	fs.StringVar(&f.showScript, "show-script", "", "print the built-in script NAME and exit")
	fs.BoolVar(&f.progressStamp, "progress-timestamp", false, "-P: start progress lines with the Unix time instead of the elapsed time")
	fs.BoolVarP(&f.connect, "connect", "C", false, "open a new connection for each transaction (its time counts in the latency)")
	fs.BoolVarP(&f.perCommand, "report-per-command", "r", false, "report each command's average latency, failures and retries")
	fs.BoolVarP(&f.log, "log", "l", false, "write every transaction to PREFIX.PID[.THREAD] in pgbench's format")
	fs.StringVar(&f.logPrefix, "log-prefix", "pgbench_log", "prefix of the -l files")
	fs.Float64Var(&f.samplingRate, "sampling-rate", 0, "-l: log only this fraction of the transactions (0 < NUM <= 1)")
	fs.IntVar(&f.aggInterval, "aggregate-interval", 0, "-l: write one line per NUM seconds instead of one per transaction")
	fs.BoolVarP(&f.vacuumAll, "vacuum-all", "v", false, "vacuum all four pgbench tables before the run")
	fs.IntVar(&f.maxTries, "max-tries", 1, "try a transaction that hits a serialization failure or a deadlock up to NUM times in all (0: no limit, needs -T or -L)")
	fs.BoolVar(&f.verboseErrors, "verbose-errors", false, "print a line for every retried or failed transaction")
	fs.BoolVar(&f.failuresDetailed, "failures-detailed", false, "report serialization failures and deadlock failures apart in the summary")
	fs.StringVar(&f.seedSpec, "random-seed", strconv.Itoa(load.DefaultSeed), "seed for every random choice: an unsigned integer, time or rand, as pgbench (the result records it)")
	fs.DurationVar(&f.connectTimeout, "connect-timeout", 5*time.Second, "give up connecting to a server after this long (libpq's connect_timeout, unless the DSN sets one)")
	fs.StringArrayVar(&f.dsns, "dsn", nil, "server to benchmark, postgres://user:password@host:port/db or key=value form (repeat for several servers side by side); default: -h/-p/-U/DBNAME and PG* variables")
	fs.StringSliceVar(&f.drivers, "driver", []string{"pgx"}, "Go drivers to benchmark, repeatable or comma-separated: "+strings.Join(pg.DriverNames(), ", "))
	fs.StringVarP(&f.host, "host", "h", "", "database server host or socket directory (default: PGHOST)")
	fs.StringVarP(&f.port, "port", "p", "", "database server port (default: PGPORT)")
	fs.StringVarP(&f.user, "username", "U", "", "database user name (default: PGUSER)")
	fs.BoolVar(&f.force, "force", false, "let -i drop and reload pgbench tables dbmeter did not create, and let runs empty such a pgbench_history")
	fs.DurationVar(&f.warmup, "warmup", 0, "run this long before measuring (pgbench has none)")
	fs.DurationVar(&f.grace, "grace", load.DefaultGrace, "how long transactions running at the end may take before they are cancelled")
	fs.StringVar(&f.shard, "shard", "", "run part I of N of the test (I/N, 0-based): -c and -R are divided among the shards, :client_id runs on across them; merge with 'dbmeter merge'")
	fs.StringVar(&f.startAt, "start-at", "", "start at this wall-clock time, RFC 3339 or +DURATION from now, so that shards measure the same seconds")
	f.search.bind(fs, nil)
	f.output.bind(fs)
}

func newPGCmd(env Env) *cobra.Command {
	var f pgFlags
	cmd := &cobra.Command{
		Use:   "pg [flags] [DBNAME]",
		Short: "pgbench-compatible TPC-B benchmark across Go drivers and servers",
		Long: `pg runs pgbench's benchmark with pgbench's flags: -i -s SCALE initialises the
four pgbench tables; a run executes the built-in scripts (tpcb-like,
simple-update -N, select-only -S) or -f script files, with -c clients for -T
seconds or -t transactions per client, in query mode -M. It runs through one
or more Go drivers (--driver pgx,pgx-stdlib,pq) against one or more servers
(--dsn, repeatable), prints pgbench's summary block with percentiles for each,
and records one run per server × driver in the result document.

Without --dsn the connection comes from -h, -p, -U, DBNAME and the PGHOST,
PGPORT, PGUSER, PGDATABASE, PGPASSWORD and PGSSLMODE variables.`,
		Example: `  dbmeter pg -i -s 10
  dbmeter pg -c 8 -j 2 -T 10 -S -M prepared --driver pgx,pgx-stdlib,pq
  dbmeter pg -c 32 -T 60 -P 5 --dsn postgres://bench@hostA/bench --dsn postgres://bench@hostB/bench --json r.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("pg takes at most one argument, the database name; got %q", args)
			}
			return nil
		},
	}
	f.bind(cmd.Flags())
	cmd.RunE = runE(func(cmd *cobra.Command, args []string) error {
		return runPG(cmd.Context(), env, &f, args)
	})
	return cmd
}

// pgPlan is the checked command line.
type pgPlan struct {
	dsns    []string
	drivers []string
	mode    pg.QueryMode
	scripts []pg.Weighted
	builtin bool // some script is built in, so the pgbench tables must exist
	vars    map[string]script.Value
	load    load.Config
	runs    int // runs started so far, for the -l file names
	secrets []string
	// clients of this shard, the first one's id, and the whole test's.
	clients, clientOffset, totalClients int
	search                              *capacity.Search
}

func runPG(ctx context.Context, env Env, f *pgFlags, args []string) error {
	if f.fs.Changed("show-script") {
		text, err := script.ShowBuiltin(f.showScript)
		if err != nil {
			return usageError{err}
		}
		_, err = fmt.Fprint(env.Stderr, text)
		return err
	}
	if f.progressStamp && f.progress == 0 {
		return usagef("--progress-timestamp is allowed only under --progress")
	}
	p, err := f.plan(env, args)
	if err != nil {
		return err
	}
	if f.fs.Changed("random-seed") {
		fmt.Fprintf(env.Stderr, "dbmeter pg: setting random seed to %d\n", f.seed) // as pgbench says it
	}
	if f.initialize {
		return runPGInit(ctx, env, f, p)
	}
	s, err := newSession(env, "pg", f.output, "", p.secrets...)
	if err != nil {
		return err
	}
	return scrubbed(s.execute(ctx, f.benchPlan(env, p)), p.secrets)
}

// plan checks the flags, as pgbench does, before anything connects.
func (f *pgFlags) plan(env Env, args []string) (*pgPlan, error) {
	opts := pg.Options{Clients: f.clients, Jobs: f.jobs, Seconds: f.seconds, PerClient: f.perCli, Progress: f.progress,
		Rate: f.rate, LatencyMS: f.latencyMS, Scale: f.scale, MaxTries: f.maxTries, Log: f.log, SamplingRate: f.samplingRate,
		AggInterval: f.aggInterval, Warmup: f.warmup, Grace: f.grace, Given: f.fs.Changed}
	if err := opts.Validate(); err != nil {
		return nil, usageError{err}
	}
	switch {
	case f.initialize && f.output.writesFiles():
		return nil, usagef("-i only initialises the tables and writes no result: leave out --json, --html, --md and --csv")
	}
	mode, err := pg.ParseMode(f.protocol)
	if err != nil {
		return nil, usageError{err}
	}
	if f.seed, err = pg.ParseSeed(f.seedSpec); err != nil {
		return nil, usageError{err}
	}
	p := &pgPlan{mode: mode}
	spec := pg.ServerSpec{DSNs: f.dsns, Host: f.host, Port: f.port, User: f.user, Getenv: env.Getenv}
	if len(args) == 1 {
		spec.DBName = args[0]
	}
	if p.dsns, p.secrets, err = pg.Servers(spec); err != nil {
		return nil, usageError{err}
	}
	if f.connectTimeout <= 0 {
		return nil, usagef("--connect-timeout must be positive, got %s", f.connectTimeout)
	}
	for i, d := range p.dsns {
		p.dsns[i] = pg.WithConnectTimeout(d, f.connectTimeout)
	}
	if p.drivers, err = pg.ParseDrivers(f.drivers); err != nil {
		return nil, usageError{err}
	}
	var defined []string
	if p.vars, defined, err = pg.ParseDefines(f.defines); err != nil {
		return nil, usageError{err}
	}
	if !f.initialize {
		p.scripts, p.builtin, err = pg.LoadScripts(pg.ScriptSpec{Builtins: f.builtins, Files: f.files,
			SelectOnly: f.selectOnly, SimpleUpdate: f.simpleUpdate, Defined: defined})
		if err != nil {
			return nil, usageError{err}
		}
	}
	opts.Seed = f.seed
	p.load = opts.LoadConfig()
	if err := f.shardPlan(p); err != nil {
		return nil, err
	}
	if p.search, err = f.search.search(&p.load, "rate"); err != nil {
		return nil, err
	}
	if err := p.load.Validate(); err != nil {
		return nil, usageError{err}
	}
	return p, nil
}

// shardPlan gives this shard its clients (ids running on from the lower
// shards'), its part of -R, and the common start.
func (f *pgFlags) shardPlan(p *pgPlan) error {
	p.clients, p.totalClients = f.clients, f.clients
	if f.shard != "" {
		sh, err := load.ParseShard(f.shard)
		if err != nil {
			return usageError{fmt.Errorf("--shard %w", err)}
		}
		if f.clients < sh.Count {
			return usagef("-c %d cannot be divided among %d shards: give at least %d", f.clients, sh.Count, sh.Count)
		}
		for i := range sh.Index {
			p.clientOffset += int(load.Shard{Index: i, Count: sh.Count}.Split(int64(f.clients)))
		}
		p.clients = int(sh.Split(int64(f.clients)))
		cfg := &p.load
		cfg.Shard, cfg.Workers, cfg.MaxInFlight = sh, p.clients, p.clients
		cfg.Rate /= float64(sh.Count)
		if cfg.Count > 0 {
			cfg.Count = int64(f.perCli) * int64(p.clients) // -t is per client
		}
	}
	if f.startAt != "" {
		t, err := load.ParseStartAt(f.startAt, time.Now())
		if err != nil {
			return usageError{fmt.Errorf("--start-at %w", err)}
		}
		p.load.StartAt = t
	}
	return nil
}

func runPGInit(ctx context.Context, env Env, f *pgFlags, p *pgPlan) error {
	steps := f.initSteps
	if f.noVacuum {
		steps = strings.ReplaceAll(steps, "v", "")
	}
	if f.foreignKeys && !strings.Contains(steps, "f") {
		steps += "f"
	}
	ic := pg.InitConfig{Scale: f.scale, Fillfactor: f.fillfactor, Steps: steps, Force: f.force, Log: env.Stderr,
		Quiet: f.quietInit || f.output.o.Quiet, Partitions: f.partitions, PartitionMethod: f.partitionMethod, Unlogged: f.unlogged,
		Tablespace: f.tablespace, IndexTablespace: f.indexTablespace}
	if err := ic.Validate(); err != nil {
		return usageError{err}
	}
	return scrubbed(pg.InitServers(ctx, p.dsns, ic, env.Stderr), p.secrets)
}

// benchPlan is one step per server × driver; each server is checked and
// sized once, by its first step.
func (f *pgFlags) benchPlan(env Env, p *pgPlan) plan.Plan {
	targets := pg.TargetNames(p.dsns)
	params := flagParams(f.fs, "help", "dsn", "host", "port", "username")
	out := plan.Plan{Family: "pg", Seed: p.load.Seed, Search: p.search}
	var ops []string
	for _, w := range p.scripts {
		ops = append(ops, w.Name)
	}
	for i, dsn := range p.dsns {
		var srv *pg.Server
		for _, drv := range p.drivers {
			out.Steps = append(out.Steps, plan.Step{Target: targets[i] + "/" + drv, Workload: pg.WorkloadName(p.scripts), Ops: ops,
				Run: func(ctx context.Context, r plan.Rep) ([]result.Run, error) {
					if srv == nil {
						var err error
						if srv, err = pg.PrepareServer(ctx, dsn, targets[i], p.builtin, f.scale, f.fs.Changed("scale"), env.Stderr); err != nil {
							return nil, err
						}
					}
					run, err := f.runOne(ctx, env, p, r, srv, drv, params)
					if err != nil {
						return nil, err
					}
					return []result.Run{run}, nil
				}})
		}
	}
	return out
}

func (f *pgFlags) runOne(ctx context.Context, env Env, p *pgPlan, r plan.Rep, srv *pg.Server, drvName string, params map[string]string) (result.Run, error) {
	drv, _ := pg.LookupDriver(drvName)
	vars := map[string]script.Value{"scale": script.Int(srv.Scale)}
	for k, v := range p.vars {
		vars[k] = v
	}
	defer func() { p.runs++ }()
	bench, err := pg.NewBench(pg.Config{Driver: drv, DSN: srv.DSN, Mode: p.mode, Scripts: p.scripts, Vars: vars,
		Seed: f.seed, Throttled: p.load.Rate > 0 || p.search != nil, Clients: p.clients, ClientOffset: p.clientOffset, TotalClients: p.totalClients, Threads: min(f.jobs, p.clients),
		Debug: env.Stderr, Timed: f.fs.Changed("time") || p.search != nil,
		MaxTries: maxTries(f.maxTries), LatencyLimit: time.Duration(f.latencyMS * float64(time.Millisecond)), VerboseErrors: verboseTo(f.verboseErrors, env.Stderr),
		ConnectPerTx: f.connect, PerCommand: f.perCommand, Log: f.txLog(p.runs)})
	if err != nil {
		return result.Run{}, usageError{err}
	}
	if !f.noVacuum {
		if err := pg.PreRunVacuum(ctx, srv, f.vacuumAll, f.force, env.Stderr); err != nil {
			return result.Run{}, err
		}
	}
	target := srv.Target + "/" + drvName
	var watch load.Watcher
	if f.progress > 0 {
		suffix := ""
		if len(p.dsns)*len(p.drivers) > 1 {
			suffix = " [" + target + "]"
		}
		watch = pg.NewProgress(env.Stderr, suffix, f.rate > 0, f.progressStamp)
	}
	if mw := r.Watch; mw != nil {
		if watch != nil {
			watch = load.Watchers{watch, mw}
		} else {
			watch = mw
		}
	}
	cfg := p.load
	if r.Rate > 0 { // a capacity search step
		cfg.Rate, cfg.Queue = r.Rate, pg.RateQueue(r.Rate)
		params = maps.Clone(params)
		params["rate"] = strconv.FormatFloat(r.Rate, 'f', -1, 64)
	}
	res, err := load.Run(ctx, cfg, bench.Ops(), bench.NewWorker, watch)
	if err != nil {
		return result.Run{}, fmt.Errorf("%s: %w", target, startError(srv.DSN, err))
	}
	if err := bench.CloseLogs(); err != nil {
		return result.Run{}, fmt.Errorf("%s: transaction log: %w", target, err)
	}
	if err := bench.LastError(); err != nil && len(bench.Aborts()) == 0 {
		// The counts say how many failed; this says why, once.
		fmt.Fprintf(env.Stderr, "dbmeter pg: %s: last transaction error: %s\n", target, oneLine(scrubbed(err, p.secrets)))
	}
	for _, a := range bench.Aborts() {
		fmt.Fprintf(env.Stderr, "dbmeter pg: %s: %s\n", target, scrubbed(errors.New(a), p.secrets))
	}
	run := res.Fill(result.Run{
		Family:   "pg",
		Target:   target,
		Workload: pg.WorkloadName(p.scripts),
		Params:   maps.Clone(params),
		Server:   "PostgreSQL " + srv.Version,
		Repeat:   1,
	}, cfg, -1)
	bench.Describe(&run, res, cfg, pg.Figures{Server: srv, Driver: drvName, Mode: p.mode, Scripts: p.scripts, Jobs: f.jobs,
		LatencyLimit: time.Duration(f.latencyMS * float64(time.Millisecond)), Connect: f.connect, PerCommand: f.perCommand})
	return run, nil
}

// txLog is -l, or nil.
func (f *pgFlags) txLog(run int) *pg.TxLog {
	if !f.log {
		return nil
	}
	return pg.FileTxLog(f.logPrefix, run, time.Duration(f.aggInterval)*time.Second, f.samplingRate)
}

// maxTries maps pgbench's --max-tries (0: unlimited) to pg.Config's.
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
	if pg.Classify(err) == load.KindConnection || pg.SQLState(err) != "" {
		return pg.ConnectError(dsn, err)
	}
	return err
}
