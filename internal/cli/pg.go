package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/flagval"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/plan"
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
	f.Command = pg.DefaultCommand()
	declare(fs, pgOpts(&f.Command)...)
	fs.Lookup("repeat").DefValue = fmt.Sprintf("1; with none of -T, -t, --repeat: %d repetitions of -T %d", pg.DefaultRepeat, pg.DefaultSeconds)
	f.search.bind(fs, nil)
	f.output.bind(fs)
}

// pgOpts declares pgbench's options, as pgbench spells them, and dbmeter's
// own, each bound to its field of c.
func pgOpts(c *pg.Command) []opt {
	return []opt{
		{"ClientsList Clients Workers", "client", "c", (*flagval.IntList)(&c.ClientsList), "number of concurrent database clients (sessions); a list (1,4,8) runs each as a variant: a sweep"},
		{"JobsList Jobs", "jobs", "j", (*flagval.IntList)(&c.JobsList), "number of threads, as pgbench (must not exceed -c; Go schedules the clients on GOMAXPROCS threads); a list sweeps"},
		{"Repeat", "repeat", "", &c.Repeat, "run every variant (server × driver × -c × -j) this many times, interleaved: all once, then all again; each figure pools them with a 95% interval"},
		{"Seconds", "time", "T", &c.Seconds, "duration of the benchmark in seconds (given -T or -t, one repetition, as pgbench)"},
		{"PerClient", "transactions", "t", &c.PerClient, "number of transactions each client runs (used when -T is not given but --repeat is)"},
		{"Progress", "progress", "P", &c.Progress, "show a pgbench progress line every NUM seconds"},
		{"Rate", "rate", "R", &c.Rate, "target rate in transactions per second (open loop, latency from the scheduled start)"},
		{"LatencyLimit", "latency-limit", "L", (*flagval.Millis)(&c.LatencyLimit), "count transactions lasting more than NUM ms as late (with -R, skip those already that late)"},
		{"Protocol", "protocol", "M", &c.Protocol, "query mode: simple, extended or prepared"},
		{"Scale", "scale", "s", &c.Scale, "scaling factor (-i: rows to create; runs: read from pgbench_branches when not given)"},
		{"Fillfactor", "fillfactor", "F", &c.Fillfactor, "-i: fill factor of the tables"},
		{"Initialize", "initialize", "i", &c.Initialize, "initialise the pgbench tables and exit"},
		{"InitSteps", "init-steps", "I", &c.InitSteps, "-i: steps to run: d drop, t create, g generate (COPY), G generate on the server, v vacuum, p primary keys, f foreign keys"},
		{"ForeignKeys", "foreign-keys", "", &c.ForeignKeys, "-i: create foreign keys between the tables"},
		{"QuietInit", "quiet-init", "q", &c.QuietInit, "-i: a progress line every 5 seconds instead of every 100000 rows (pgbench's -q; with -i, --quiet does the same)"},
		{"Partitions", "partitions", "", &c.Partitions, "-i: partition pgbench_accounts into NUM partitions"},
		{"PartitionMethod", "partition-method", "", &c.PartitionMethod, "-i: range (default with --partitions) or hash"},
		{"Unlogged", "unlogged-tables", "", &c.Unlogged, "-i: create the tables UNLOGGED"},
		{"Tablespace", "tablespace", "", &c.Tablespace, "-i: create the tables in this tablespace"},
		{"IndexTablespace", "index-tablespace", "", &c.IndexTablespace, "-i: create the primary keys in this tablespace"},
		{"NoVacuum", "no-vacuum", "n", &c.NoVacuum, "do not vacuum before the run (-i: skip the vacuum step)"},
		{"SimpleUpdate", "skip-some-updates", "N", &c.SimpleUpdate, "run the simple-update built-in script (-b simple-update)"},
		{"SelectOnly", "select-only", "S", &c.SelectOnly, "run the select-only built-in script (-b select-only)"},
		{"Builtins", "builtin", "b", (*flagval.Repeated)(&c.Builtins), "built-in script NAME[@WEIGHT]: tpcb-like, simple-update, select-only (repeatable)"},
		{"Files", "file", "f", (*flagval.Repeated)(&c.Files), "script FILE[@WEIGHT] in pgbench's format (repeatable)"},
		{"Defines", "define", "D", (*flagval.Repeated)(&c.Defines), "define a script variable NAME=VALUE (repeatable)"},
		{"ShowScript", "show-script", "", &c.ShowScript, "print the built-in script NAME and exit"},
		{"ProgressStamp", "progress-timestamp", "", &c.ProgressStamp, "-P: start progress lines with the Unix time instead of the elapsed time"},
		{"Connect", "connect", "C", &c.Connect, "open a new connection for each transaction (its time counts in the latency)"},
		{"PerCommand", "report-per-command", "r", &c.PerCommand, "report each command's average latency, failures and retries"},
		{"Log", "log", "l", &c.Log, "write every transaction to PREFIX.PID[.THREAD] in pgbench's format"},
		{"LogPrefix", "log-prefix", "", &c.LogPrefix, "prefix of the -l files"},
		{"SamplingRate", "sampling-rate", "", &c.SamplingRate, "-l: log only this fraction of the transactions (0 < NUM <= 1)"},
		{"AggInterval", "aggregate-interval", "", &c.AggInterval, "-l: write one line per NUM seconds instead of one per transaction"},
		{"VacuumAll", "vacuum-all", "v", &c.VacuumAll, "vacuum all four pgbench tables before the run"},
		{"MaxTries", "max-tries", "", &c.MaxTries, "try a transaction that hits a serialization failure or a deadlock up to NUM times in all (0: no limit, needs -T or -L)"},
		{"VerboseErrors", "verbose-errors", "", &c.VerboseErrors, "print a line for every retried or failed transaction"},
		{"FailuresDetailed", "failures-detailed", "", &c.FailuresDetailed, "report serialization failures and deadlock failures apart in the summary"},
		{"SeedSpec", "random-seed", "", &c.SeedSpec, "seed for every random choice: an unsigned integer, time or rand, as pgbench (the result records it)"},
		{"ConnectTimeout", "connect-timeout", "", &c.ConnectTimeout, "give up connecting to a server after this long (libpq's connect_timeout, unless the DSN sets one)"},
		{"DSNs", "dsn", "", (*flagval.Repeated)(&c.DSNs), "server to benchmark, postgres://user:password@host:port/db or key=value form (repeat for several servers side by side); default: -h/-p/-U/DBNAME and PG* variables"},
		{"Drivers", "driver", "", &c.Drivers, "Go drivers to benchmark, repeatable or comma-separated: " + strings.Join(driver.Names(), ", ")},
		{"Host", "host", "h", &c.Host, "database server host or socket directory (default: PGHOST)"},
		{"Port", "port", "p", &c.Port, "database server port (default: PGPORT)"},
		{"User", "username", "U", &c.User, "database user name (default: PGUSER)"},
		{"Force", "force", "", &c.Force, "let -i drop and reload pgbench tables dbmeter did not create, and let runs empty such a pgbench_history"},
		{"Warmup", "warmup", "", &c.Warmup, "run this long before measuring (pgbench has none)"},
		{"Grace", "grace", "", &c.Grace, "how long transactions running at the end may take before they are cancelled"},
		{"Shard", "shard", "", &c.Shard, "run part I of N of the test (I/N, 0-based): -c and -R are divided among the shards, :client_id runs on across them; merge with 'dbmeter merge'"},
		{"StartAt", "start-at", "", &c.StartAt, "start at this wall-clock time, RFC 3339 or +DURATION from now, so that shards measure the same seconds"},
		{"NoServerStats", "no-server-stats", "", &c.NoServerStats, "do not read the server's own figures (pg_stat_statements, pg_stat_database, wait events of the run's backends)"},
		{"ServerStatsInterval", "server-stats-interval", "", &c.ServerStatsInterval, "sample the run's backends' wait events this often"},
		{"StorageProfile", "storage-profile", "", &c.StorageProfile, "run the server under a storage class: hdd, sata-ssd, nvme, provisioned, or limits riops=N,wiops=N,rbps=SIZE,wbps=SIZE,mem=SIZE (a local cluster; root; see docs/storage.md)"},
		{"StorageServer", "storage-server", "", &c.StorageServer, "--storage-profile: the cluster to place, by data directory or postmaster PID (default: the dev-services cluster)"},
	}
}

// defaultRun runs a command that pg.DefaultRun says is pg's default
// experiment as if the user had typed it, so that the runs record it.
func (f *pgFlags) defaultRun() error {
	if f.Given = given(f.fs, fieldFlags(f.fs)); !f.DefaultRun() {
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
		Use:     "pg [flags] [DBNAME]",
		Short:   "pgbench-compatible TPC-B benchmark across Go drivers and servers",
		Long:    help("pg"),
		Example: help("pg-example"),
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

// runPG completes pg's command from the flags and hands it to the family.
func runPG(ctx context.Context, env Env, f *pgFlags, args []string) error {
	f.Outputs = f.output.writesFiles()
	if err := f.defaultRun(); err != nil {
		return err
	}
	fields := fieldFlags(f.fs)
	spelled := spelling(f.fs, fields, "latency-limit")
	f.Given = given(f.fs, fields)
	f.Getenv, f.Stderr = env.Getenv, &usage.Writer{W: env.Stderr, Spelling: spelled}
	// -L is recorded by the family from its typed value (bench.Describe),
	// the one that counted the late and skipped transactions, not here
	// from the flag's text.
	f.Params = flagParams(f.fs, "help", "dsn", "host", "port", "username", "latency-limit")
	x := pg.Exec{ProbeShare: storage.SharedProbe(env.Getenv), Quiet: f.output.o.Quiet,
		Search: func(cfg *load.Config) (*capacity.Search, error) { return f.search.search(cfg, "transactions") },
		Open: func(dir string, secrets ...string) (plan.Output, error) {
			return newSession(env, "pg", f.output, dir, secrets...)
		}}
	return usage.Spell(f.Execute(ctx, args, x), spelled)
}
