package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/query/clients"
	"github.com/dbmeter/dbmeter/internal/flagval"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
)

func newCHQueryCmd(env Env) *cobra.Command {
	var rf runFlags
	var f query.Command
	var sf searchFlags
	cmd := &cobra.Command{
		Use:     "query",
		Short:   "Query latency at a fixed rate per client, pool, prepare and decode setting",
		Long:    help("ch-query"),
		Example: help("ch-query-example"),
		Args:    noArgs,
	}
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		return runCHQuery(cmd, env, &rf, &f, &sf)
	})
	def := load.DefaultConfig()
	def.Rate = query.DefaultRate
	rf.bind(cmd.Flags(), def)
	rf.defaultExtent(query.DefaultExtent())
	fs := cmd.Flags()
	f = query.DefaultCommand()
	f.Getenv, f.Lookup = env.Getenv, clients.Resolve
	c := &f.Config
	declare(fs,
		opt{"DSN", "dsn", "", &f.DSN, "ClickHouse native address: clickhouse://user:password@host:port/db or tcp://host:port?username=…&password=…&database=… (default: $DBMETER_CLICKHOUSE_DSN, which keeps the password out of the process arguments)"},
		opt{"HTTPURL", "http-url", "", &f.HTTPURL, "the server's HTTP interface for the http protocol (default: $DBMETER_CLICKHOUSE_HTTP_URL, else http://HOST:8123 with HOST from --dsn; a default must answer as the --dsn server does)"},
		opt{"Clients", "clients", "", &f.Clients, "client paths, comma-separated, or all (every client in this build that the server supports)"},
		opt{"Preset", "preset", "", &c.Preset, "query preset: " + strings.Join(query.PresetNames(), ", ")},
		opt{"SQL", "query", "", &c.SQL, "SQL to run instead of a preset, with ? placeholders"},
		opt{"QueriesFile", "queries-file", "", &f.QueriesFile, "run a mix of queries instead: a file of one query per line, as clickhouse-benchmark reads them, each optionally after a weight (\"3 SELECT …\"); each arrival picks one by weight, seeded; reported per query (q1, q2, … in file order) and for the mix (docs/ch-query.md)"},
		opt{"Args", "arg", "", (*flagval.Repeated)(&c.Args), "a value for the next ? of --query (repeat per placeholder; integers and floats are bound as numbers)"},
		opt{"Prepared", "prepared", "", &c.Prepared, "bind parameters through the client's API instead of inlining them: clickhouse-go v1 and v2 bind on the client, ch-go sends server-side query parameters (list: false,true)"},
		opt{"Decodes", "decode", "", &f.Decodes, "walk results row by row or column by column (list: row,column)"},
		opt{"Protocols", "protocol", "", &f.Protocols, "native or http (list); default: each client's own"},
		opt{"MaxOpen", "pool-max-open", "", &c.MaxOpen, "most connections open at once, 0: no limit (list)"},
		opt{"MaxIdle", "pool-max-idle", "", &c.MaxIdle, "most idle connections kept, 0: none, each query connects (list)"},
		opt{"IdleTimeout", "pool-idle-timeout", "", &c.IdleTimeout, "close connections idle this long, 0: never (list)"},
		opt{"Lifetime", "pool-lifetime", "", &c.Lifetime, "close connections this old, 0: never (list)"},
		opt{"NoWarmup", "no-warmup", "", &c.NoWarmup, "no warm-up: no first query to open a connection and no --warmup period"},
		opt{"NoServerStats", "no-server-stats", "", &c.NoServerStats, "do not read the server's own figures (system.query_log for the run's queries, system.events)"},
		opt{"Create", "create", "", &c.Create, "create or refresh dbmeter's own data set for the presets"},
		opt{"Matrix", "matrix", "", &c.Matrix, "run every combination of the listed knob values"},
		opt{"Cmd", "worker-cmd", "", &c.Worker.Cmd, "run your own client as the client \"worker\": a command speaking dbmeter's worker protocol (docs/worker-protocol.md), split at spaces, started once per connection"},
		opt{"Timeout", "worker-timeout", "", &c.Worker.Timeout, "an external client's worker that takes longer to answer counts as hung: killed, a connection error, restarted"},
		opt{"PprofAddr", "pprof-addr", "", &f.PprofAddr, "serve net/http/pprof here during the run, e.g. 127.0.0.1:6060"},
		opt{"Database", "database", "", &c.Data.Database, "database of dbmeter's data set (made and marked by dbmeter)"},
		opt{"Events", "events-rows", "", &c.Data.Events, "rows of the events table (count preset)"},
		opt{"Metrics", "metrics-rows", "", &c.Data.Metrics, "rows of the metrics table (sum preset)"},
		opt{"Users", "users-rows", "", &c.Data.Users, "rows of the users table (select1k, select10k presets)"},
		opt{"SumWindow", "sum-window", "", &c.SumWindow, "time range of each sum preset query"},
		opt{"SelectRows", "select-rows", "", &c.SelectRows, fmt.Sprintf("rows each numbers preset query reads (seed 002 read 10 to 10,000; at most %d)", query.NumbersRows)})
	fs.Lookup("prepared").NoOptDefVal = "true"
	sf.bind(fs, &rf)
	return cmd
}

func runCHQuery(cmd *cobra.Command, env Env, rf *runFlags, f *query.Command, sf *searchFlags) error {
	if !sf.o.Find { // a capacity search's steps have their own length
		rf.applyExtent()
	}
	rf.sweeps = !sf.o.Find // a capacity search finds one rate per setting
	fields := fieldFlags(cmd.Flags())
	f.Given = given(cmd.Flags(), fields)
	c, err := f.Resolve(&rf.cfg, rf.config, rf.repeat, flagParams(cmd.Flags()))
	if err != nil {
		return usage.Spell(err, spelling(cmd.Flags(), fields))
	}
	c.Rates, c.WorkerCounts = sweep(rf.rates), sweep(rf.workers)
	search, err := sf.search(&c.Load, "count")
	if err != nil {
		return err
	}
	timeout, _ := cmd.Flags().GetDuration("connect-timeout")
	return query.Execute(cmd.Context(), c, query.Exec{Search: search, ConnectTimeout: timeout, PprofAddr: f.PprofAddr,
		Stderr: env.Stderr, Open: rf.opener(env, "ch")})
}
