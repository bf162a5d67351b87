package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/script"
	"github.com/dbmeter/dbmeter/internal/pg/serverstats"
	"github.com/dbmeter/dbmeter/internal/storage"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// pgFlags bind pgbench's options, spelled as pgbench spells them, and
// dbmeter's own to the family's Command.
type pgFlags struct {
	pg.Command
	output outputFlags
	search searchFlags
	fs     *pflag.FlagSet
}

func (f *pgFlags) bind(fs *pflag.FlagSet) {
	f.fs = fs
	fs.Bool("help", false, "help for pg")
	f.ClientsList, f.JobsList = []int{1}, []int{1}
	fs.VarP((*intList)(&f.ClientsList), "client", "c", "number of concurrent database clients (sessions); a list (1,4,8) runs each as a variant: a sweep")
	fs.VarP((*intList)(&f.JobsList), "jobs", "j", "number of threads, as pgbench (must not exceed -c; Go schedules the clients on GOMAXPROCS threads); a list sweeps")
	fs.IntVar(&f.Repeat, "repeat", 1, "run every variant (server × driver × -c × -j) this many times, interleaved: all once, then all again; each figure pools them with a 95% interval")
	fs.Lookup("repeat").DefValue = fmt.Sprintf("1; with none of -T, -t, --repeat: %d repetitions of -T %d", pg.DefaultRepeat, pg.DefaultSeconds)
	fs.IntVarP(&f.Seconds, "time", "T", 0, "duration of the benchmark in seconds (given -T or -t, one repetition, as pgbench)")
	fs.IntVarP(&f.PerClient, "transactions", "t", 10, "number of transactions each client runs (used when -T is not given but --repeat is)")
	fs.IntVarP(&f.Progress, "progress", "P", 0, "show a pgbench progress line every NUM seconds")
	fs.Float64VarP(&f.Rate, "rate", "R", 0, "target rate in transactions per second (open loop, latency from the scheduled start)")
	fs.VarP((*millis)(&f.LatencyLimit), "latency-limit", "L", "count transactions lasting more than NUM ms as late (with -R, skip those already that late)")
	fs.StringVarP(&f.Protocol, "protocol", "M", "simple", "query mode: simple, extended or prepared")
	fs.Int64VarP(&f.Scale, "scale", "s", 1, "scaling factor (-i: rows to create; runs: read from pgbench_branches when not given)")
	fs.IntVarP(&f.Fillfactor, "fillfactor", "F", 100, "-i: fill factor of the tables")
	fs.BoolVarP(&f.Initialize, "initialize", "i", false, "initialise the pgbench tables and exit")
	fs.StringVarP(&f.InitSteps, "init-steps", "I", "dtgvp", "-i: steps to run: d drop, t create, g generate (COPY), G generate on the server, v vacuum, p primary keys, f foreign keys")
	fs.BoolVar(&f.ForeignKeys, "foreign-keys", false, "-i: create foreign keys between the tables")
	fs.BoolVarP(&f.QuietInit, "quiet-init", "q", false, "-i: a progress line every 5 seconds instead of every 100000 rows (pgbench's -q; with -i, --quiet does the same)")
	fs.IntVar(&f.Partitions, "partitions", 0, "-i: partition pgbench_accounts into NUM partitions")
	fs.StringVar(&f.PartitionMethod, "partition-method", "", "-i: range (default with --partitions) or hash")
	fs.BoolVar(&f.Unlogged, "unlogged-tables", false, "-i: create the tables UNLOGGED")
	fs.StringVar(&f.Tablespace, "tablespace", "", "-i: create the tables in this tablespace")
	fs.StringVar(&f.IndexTablespace, "index-tablespace", "", "-i: create the primary keys in this tablespace")
	fs.BoolVarP(&f.NoVacuum, "no-vacuum", "n", false, "do not vacuum before the run (-i: skip the vacuum step)")
	fs.BoolVarP(&f.SimpleUpdate, "skip-some-updates", "N", false, "run the simple-update built-in script (-b simple-update)")
	fs.BoolVarP(&f.SelectOnly, "select-only", "S", false, "run the select-only built-in script (-b select-only)")
	fs.StringArrayVarP(&f.Builtins, "builtin", "b", nil, "built-in script NAME[@WEIGHT]: tpcb-like, simple-update, select-only (repeatable)")
	fs.StringArrayVarP(&f.Files, "file", "f", nil, "script FILE[@WEIGHT] in pgbench's format (repeatable)")
	fs.StringArrayVarP(&f.Defines, "define", "D", nil, "define a script variable NAME=VALUE (repeatable)")
	fs.StringVar(&f.ShowScript, "show-script", "", "print the built-in script NAME and exit")
	fs.BoolVar(&f.ProgressStamp, "progress-timestamp", false, "-P: start progress lines with the Unix time instead of the elapsed time")
	fs.BoolVarP(&f.Connect, "connect", "C", false, "open a new connection for each transaction (its time counts in the latency)")
	fs.BoolVarP(&f.PerCommand, "report-per-command", "r", false, "report each command's average latency, failures and retries")
	fs.BoolVarP(&f.Log, "log", "l", false, "write every transaction to PREFIX.PID[.THREAD] in pgbench's format")
	fs.StringVar(&f.LogPrefix, "log-prefix", "pgbench_log", "prefix of the -l files")
	fs.Float64Var(&f.SamplingRate, "sampling-rate", 0, "-l: log only this fraction of the transactions (0 < NUM <= 1)")
	fs.IntVar(&f.AggInterval, "aggregate-interval", 0, "-l: write one line per NUM seconds instead of one per transaction")
	fs.BoolVarP(&f.VacuumAll, "vacuum-all", "v", false, "vacuum all four pgbench tables before the run")
	fs.IntVar(&f.MaxTries, "max-tries", 1, "try a transaction that hits a serialization failure or a deadlock up to NUM times in all (0: no limit, needs -T or -L)")
	fs.BoolVar(&f.VerboseErrors, "verbose-errors", false, "print a line for every retried or failed transaction")
	fs.BoolVar(&f.FailuresDetailed, "failures-detailed", false, "report serialization failures and deadlock failures apart in the summary")
	fs.StringVar(&f.SeedSpec, "random-seed", strconv.Itoa(load.DefaultSeed), "seed for every random choice: an unsigned integer, time or rand, as pgbench (the result records it)")
	fs.DurationVar(&f.ConnectTimeout, "connect-timeout", 5*time.Second, "give up connecting to a server after this long (libpq's connect_timeout, unless the DSN sets one)")
	fs.StringArrayVar(&f.DSNs, "dsn", nil, "server to benchmark, postgres://user:password@host:port/db or key=value form (repeat for several servers side by side); default: -h/-p/-U/DBNAME and PG* variables")
	fs.StringSliceVar(&f.Drivers, "driver", []string{"pgx"}, "Go drivers to benchmark, repeatable or comma-separated: "+strings.Join(driver.Names(), ", "))
	fs.StringVarP(&f.Host, "host", "h", "", "database server host or socket directory (default: PGHOST)")
	fs.StringVarP(&f.Port, "port", "p", "", "database server port (default: PGPORT)")
	fs.StringVarP(&f.User, "username", "U", "", "database user name (default: PGUSER)")
	fs.BoolVar(&f.Force, "force", false, "let -i drop and reload pgbench tables dbmeter did not create, and let runs empty such a pgbench_history")
	fs.DurationVar(&f.Warmup, "warmup", 0, "run this long before measuring (pgbench has none)")
	fs.DurationVar(&f.Grace, "grace", load.DefaultGrace, "how long transactions running at the end may take before they are cancelled")
	fs.StringVar(&f.Shard, "shard", "", "run part I of N of the test (I/N, 0-based): -c and -R are divided among the shards, :client_id runs on across them; merge with 'dbmeter merge'")
	fs.StringVar(&f.StartAt, "start-at", "", "start at this wall-clock time, RFC 3339 or +DURATION from now, so that shards measure the same seconds")
	fs.BoolVar(&f.NoServerStats, "no-server-stats", false, "do not read the server's own figures (pg_stat_statements, pg_stat_database, wait events of the run's backends)")
	fs.DurationVar(&f.ServerStatsInterval, "server-stats-interval", serverstats.DefaultInterval, "sample the run's backends' wait events this often")
	fs.StringVar(&f.StorageProfile, "storage-profile", "", "run the server under a storage class: hdd, sata-ssd, nvme, provisioned, or limits riops=N,wiops=N,rbps=SIZE,wbps=SIZE,mem=SIZE (a local cluster; root; see docs/storage.md)")
	fs.StringVar(&f.StorageServer, "storage-server", "", "--storage-profile: the cluster to place, by data directory or postmaster PID (default: the dev-services cluster)")
	f.search.bind(fs, nil)
	f.output.bind(fs)
}

// defaultRun runs a command that pg.DefaultRun says is pg's default
// experiment as if the user had typed it, so that the runs record it.
func (f *pgFlags) defaultRun() error {
	if f.Given = given(f.fs, pgFields()); !f.DefaultRun() {
		return nil
	}
	if err := f.fs.Set("time", strconv.Itoa(pg.DefaultSeconds)); err != nil {
		return err
	}
	return f.fs.Set("repeat", strconv.Itoa(pg.DefaultRepeat))
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

-c and -j take lists (-c 1,4,8): every combination of the lists, servers
and drivers is a variant, and --repeat N runs every variant N times,
interleaved (all variants once, then all again), so that a comparison does
not take the machine's drift for a difference. With one variant and one
repetition the output is pgbench's summary; otherwise a table pools each
variant's repetitions with a 95% interval (docs/pg.md, "Method").

Given none of -T, -t and --repeat, pg runs its default experiment: 5
repetitions of -T 2, pooled with a 95% interval. Give -T or -t for
pgbench's one run and its summary block.

Without --dsn the connection comes from -h, -p, -U, DBNAME and the PGHOST,
PGPORT, PGUSER, PGDATABASE, PGPASSWORD and PGSSLMODE variables.`,
		Example: `  dbmeter pg -i -s 10
  dbmeter pg -c 8 -j 2 -T 10 -S -M prepared --driver pgx,pgx-stdlib,pq
  dbmeter pg -S -c 1,4,8 -T 5 --repeat 5
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

func runPG(ctx context.Context, env Env, f *pgFlags, args []string) (runErr error) {
	if f.fs.Changed("show-script") {
		text, err := script.ShowBuiltin(f.ShowScript)
		if err != nil {
			return usage.Wrap(err)
		}
		_, err = fmt.Fprint(env.Stderr, text)
		return err
	}
	f.Outputs = f.output.writesFiles()
	if err := f.defaultRun(); err != nil {
		return err
	}
	fields := pgFields()
	spelled := spelling(f.fs, fields, "latency-limit")
	f.Given = given(f.fs, fields)
	f.Getenv, f.Stderr = env.Getenv, spellingWriter{env.Stderr, spelled}
	// -L is recorded by the family from its typed value (bench.Describe),
	// the one that counted the late and skipped transactions, not here
	// from the flag's text.
	f.Params = flagParams(f.fs, "help", "dsn", "host", "port", "username", "latency-limit")
	p, err := f.Prepare(args)
	if err != nil {
		return usage.Spell(usage.Wrap(err), spelled)
	}
	search, err := f.search.search(p.Load(), "transactions")
	if err != nil {
		return err
	}
	if err := p.Searching(search); err != nil {
		return usage.Spell(err, spelled)
	}
	if f.fs.Changed("random-seed") {
		fmt.Fprintf(env.Stderr, "dbmeter pg: setting random seed to %d\n", f.Seed) // as pgbench says it
	}
	prof, err := parseStorageProfile(f.StorageProfile)
	if err != nil {
		return err
	}
	withProbeShare(prof, env.Getenv)
	if f.Initialize {
		return usage.Spell(scrubbed(f.Init(ctx, p, f.output.o.Quiet), p.Secrets), spelled)
	}
	var sess *storage.Session
	if prof != nil {
		eps, err := p.Endpoints()
		if err != nil {
			return err
		}
		if sess, err = openPGStorage(ctx, env.Stderr, prof, f.StorageServer, eps); err != nil {
			return err
		}
		defer func() { runErr = errors.Join(runErr, sess.Close()) }()
	}
	s, err := newSession(env, "pg", f.output, "", p.Secrets...)
	if err != nil {
		return err
	}
	pl := f.Plan(p)
	if sess != nil {
		s.Doc().Env.Disk.Storage = sess.Record
		pl = sess.Counted(pl)
	}
	return usage.Spell(scrubbed(s.Execute(ctx, pl), p.Secrets), spelled)
}
