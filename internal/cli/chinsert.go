package cli

import (
	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/flagval"
	"github.com/dbmeter/dbmeter/internal/usage"
)

func newCHInsertCmd(env Env) *cobra.Command {
	var rf runFlags
	var f insert.Command
	cmd := &cobra.Command{
		Use:     "insert",
		Short:   "Compare Go clients' bulk inserts into ClickHouse (rows/s, MB/s, build vs send, CPU and allocations per row)",
		Long:    help("ch-insert"),
		Example: help("ch-insert-example"),
		Args:    noArgs,
	}
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error { return runCHInsert(cmd, env, &rf, &f) })
	rf.bind(cmd.Flags(), insert.DefaultLoad())
	rf.defaultExtent(insert.DefaultExtent())
	fs := cmd.Flags()
	f = insert.DefaultCommand()
	f.Getenv = env.Getenv
	c := &f.Config
	declare(fs,
		opt{"DSN", "dsn", "", &f.DSN, "ClickHouse native address: clickhouse://user:password@host:port/db or tcp://host:port?username=…&password=…&database=… (default: $DBMETER_CLICKHOUSE_DSN, which keeps the password out of the process arguments)"},
		opt{"Clients", "clients", "", &f.Clients, "client paths, comma-separated; auto, alone or in the list, stands for every Go path the server's version supports (auto,php-seasclick adds the PHP client)"},
		opt{"Batch", "batch", "", (*flagval.IntList)(&c.Batches), "rows per block (one operation); a list (10000,100000) runs each as a variant: a sweep"},
		opt{"Rows", "rows", "", &c.Rows, "insert this many rows per client and repetition instead of running for --duration"},
		opt{"Table", "table", "", &f.Table, "target table, db.name (with --schema numbers or byte: " + insert.DefaultDatabase + ".numbers or .byte)"},
		opt{"Schema", "schema", "", &f.Schema, "the table's columns and rows: event (seed 000's 32-column log table), numbers (seed 002's ten numeric columns u8 … f64) or byte (seed 002's Nagle test: one UInt8 column, a byte a row)"},
		opt{"Engine", "table-engine", "", &c.Engine, "with --create: the table's engine, MergeTree or Null (ClickHouse discards the rows: no parts are written, and no row count can be checked; seed 002's author inserted so)"},
		opt{"ExtraColumns", "extra-columns", "", &c.ExtraColumns, "with --create: pad the table with this many defaulted columns (the seed's table had 657 more)"},
		opt{"Create", "create", "", &c.Create, "create the table (a table dbmeter created before is dropped and re-made; any other is refused)"},
		opt{"BlocksPerInsert", "blocks-per-insert", "", &c.BlocksPerInsert, "stream this many blocks through one INSERT where the client can"},
		opt{"NoDelay", "tcp-nodelay", "", &c.NoDelay, "set TCP_NODELAY on the clients' connections (false: Nagle's algorithm on)"},
		opt{"WorkerCmd", "worker-cmd", "", &c.WorkerCmd, "run your own client as the client \"worker\": a command speaking dbmeter's worker protocol (docs/worker-protocol.md), split at spaces, started once per connection"},
		opt{"WorkerTimeout", "worker-timeout", "", &c.WorkerTimeout, "an external client's worker that takes longer to answer counts as hung: killed, a connection error, restarted"},
		opt{"DumpFormat", "dump-format", "", &f.DumpFormat, "write the generated rows to stdout in this format (Native or TSV) and exit: for scripts/ch-insert-ceiling.sh"})
	fs.MarkHidden("dump-format")
	return cmd
}

func runCHInsert(cmd *cobra.Command, env Env, rf *runFlags, f *insert.Command) error {
	ctx := cmd.Context()
	fields := fieldFlags(cmd.Flags())
	spelled := spelling(cmd.Flags(), fields)
	f.Given = given(cmd.Flags(), fields)
	if t := f.SchemaTable(); t != "" && !cmd.Flags().Changed("table") {
		cmd.Flags().Set("table", t) // recorded in the runs' params as the table they filled
	}
	if f.DumpFormat != "" {
		return usage.Spell(f.Dump(env.Stdout, rf.cfg.Seed), spelled)
	}
	rf.sweeps = true
	rf.applyExtent()
	c, err := f.Resolve(rf.cfg.Warmup, rf.config, rf.repeat, flagParams(cmd.Flags(), "dump-format"))
	if err != nil {
		return usage.Spell(err, spelled)
	}
	c.WorkerCounts = sweep(rf.workers)
	timeout, _ := cmd.Flags().GetDuration("connect-timeout")
	return insert.Execute(ctx, c, timeout, env.Stderr, rf.opener(env, "ch"))
}
