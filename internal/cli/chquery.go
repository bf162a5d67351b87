package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/query/clients"
	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/metrics"
	"github.com/dbmeter/dbmeter/internal/usage"
)

func newCHQueryCmd(env Env) *cobra.Command {
	var rf runFlags
	var f query.Command
	var sf searchFlags
	cmd := &cobra.Command{
		Use:   "query",
		Short: "Query latency at a fixed rate per client, pool, prepare and decode setting",
		Long: `query runs one query shape through one or more ClickHouse client paths and
reports latency percentiles measured from each query's intended start (open
loop, 100/s by default), the achieved rate, connections opened and decode
time per row. --workers N without --rate runs closed loop with N workers;
with --rate, N workers are made up front and at most N queries are in flight
(unless --max-in-flight says otherwise), so a rate they cannot sustain shows
as a shortfall. Without --workers, up to --max-in-flight (default 1000)
queries may be in flight. Knob flags take comma lists; --matrix runs every
combination side by side.`,
		Example: `  dbmeter ch query --dsn "$DSN" --create --preset count --rate 100 --duration 10s --clients clickhouse-go-v1,http
  dbmeter ch query --dsn "$DSN" --preset select10k --decode row,column --matrix
  dbmeter ch query --dsn "$DSN" --query 'SELECT count() FROM system.numbers_mt WHERE number < ?' --arg 1000
  dbmeter ch query --dsn "$DSN" --create --preset count --clients clickhouse-go-v1,http --find-max-rate --slo 'p99<15ms'`,
		Args: noArgs,
	}
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		return runCHQuery(cmd, env, &rf, &f, &sf)
	})
	def := load.DefaultConfig()
	def.Rate = query.DefaultRate
	rf.bind(cmd.Flags(), def)
	rf.defaultExtent(extent{repeat: query.DefaultRepeat, d: query.DefaultDuration})
	fs := cmd.Flags()
	f.Given, f.Getenv, f.Lookup = given(fs, chQueryFields()), env.Getenv, clients.Resolve
	data := query.DefaultDataset()
	c := &f.Config
	fs.StringVar(&f.DSN, "dsn", "", "ClickHouse native address: clickhouse://user:password@host:port/db or tcp://host:port?username=…&password=…&database=… (default: $DBMETER_CLICKHOUSE_DSN, which keeps the password out of the process arguments)")
	fs.StringVar(&f.HTTPURL, "http-url", "", "the server's HTTP interface for the http protocol (default: $DBMETER_CLICKHOUSE_HTTP_URL, else http://HOST:8123 with HOST from --dsn; a default must answer as the --dsn server does)")
	fs.StringSliceVar(&f.Clients, "clients", []string{"all"}, "client paths, comma-separated, or all (every client in this build that the server supports)")
	fs.StringVar(&c.Preset, "preset", "", "query preset: "+strings.Join(query.PresetNames(), ", "))
	fs.StringVar(&c.SQL, "query", "", "SQL to run instead of a preset, with ? placeholders")
	fs.StringVar(&f.QueriesFile, "queries-file", "", "run a mix of queries instead: a file of one query per line, as clickhouse-benchmark reads them, each optionally after a weight (\"3 SELECT …\"); each arrival picks one by weight, seeded; reported per query (q1, q2, … in file order) and for the mix (docs/ch-query.md)")
	fs.StringArrayVar(&c.Args, "arg", nil, "a value for the next ? of --query (repeat per placeholder; integers and floats are bound as numbers)")
	fs.BoolSliceVar(&c.Prepared, "prepared", []bool{false}, "bind parameters through the client's API instead of inlining them: clickhouse-go v1 and v2 bind on the client, ch-go sends server-side query parameters (list: false,true)")
	fs.Lookup("prepared").NoOptDefVal = "true"
	fs.StringSliceVar(&f.Decodes, "decode", []string{string(query.Row)}, "walk results row by row or column by column (list: row,column)")
	fs.StringSliceVar(&f.Protocols, "protocol", nil, "native or http (list); default: each client's own")
	fs.IntSliceVar(&c.MaxOpen, "pool-max-open", []int{0}, "most connections open at once, 0: no limit (list)")
	fs.IntSliceVar(&c.MaxIdle, "pool-max-idle", []int{2}, "most idle connections kept, 0: none, each query connects (list)")
	fs.DurationSliceVar(&c.IdleTimeout, "pool-idle-timeout", []time.Duration{0}, "close connections idle this long, 0: never (list)")
	fs.DurationSliceVar(&c.Lifetime, "pool-lifetime", []time.Duration{0}, "close connections this old, 0: never (list)")
	fs.BoolVar(&c.NoWarmup, "no-warmup", false, "no warm-up: no first query to open a connection and no --warmup period")
	fs.BoolVar(&c.NoServerStats, "no-server-stats", false, "do not read the server's own figures (system.query_log for the run's queries, system.events)")
	fs.BoolVar(&c.Create, "create", false, "create or refresh dbmeter's own data set for the presets")
	fs.BoolVar(&c.Matrix, "matrix", false, "run every combination of the listed knob values")
	fs.StringVar(&c.Worker.Cmd, "worker-cmd", "", "run your own client as the client \"worker\": a command speaking dbmeter's worker protocol (docs/worker-protocol.md), split at spaces, started once per connection")
	fs.DurationVar(&c.Worker.Timeout, "worker-timeout", extworker.DefaultOpTimeout, "an external client's worker that takes longer to answer counts as hung: killed, a connection error, restarted")
	fs.StringVar(&f.PprofAddr, "pprof-addr", "", "serve net/http/pprof here during the run, e.g. 127.0.0.1:6060")
	fs.StringVar(&c.Data.Database, "database", data.Database, "database of dbmeter's data set (made and marked by dbmeter)")
	fs.Int64Var(&c.Data.Events, "events-rows", data.Events, "rows of the events table (count preset)")
	fs.Int64Var(&c.Data.Metrics, "metrics-rows", data.Metrics, "rows of the metrics table (sum preset)")
	fs.Int64Var(&c.Data.Users, "users-rows", data.Users, "rows of the users table (select1k, select10k presets)")
	fs.DurationVar(&c.SumWindow, "sum-window", time.Hour, "time range of each sum preset query")
	fs.IntVar(&c.SelectRows, "select-rows", 1000, fmt.Sprintf("rows each numbers preset query reads (seed 002 read 10 to 10,000; at most %d)", query.NumbersRows))
	sf.bind(fs, &rf)
	return cmd
}

func runCHQuery(cmd *cobra.Command, env Env, rf *runFlags, f *query.Command, sf *searchFlags) error {
	if !sf.o.Find { // a capacity search's steps have their own length
		rf.applyExtent()
	}
	rf.sweeps = !sf.o.Find // a capacity search finds one rate per setting
	c, err := f.Resolve(&rf.cfg, rf.config, rf.repeat, flagParams(cmd.Flags()))
	if err != nil {
		return usage.Spell(err, spelling(cmd.Flags(), chQueryFields()))
	}
	c.Rates, c.WorkerCounts = rf.rateList(), rf.workerList()
	search, err := sf.search(&c.Load, "count")
	if err != nil {
		return err
	}
	secrets := c.DSN.Secrets()
	c.Search = search != nil
	if err := c.Validate(); err != nil {
		return usage.Wrap(err)
	}
	version, err := serverVersion(cmd, c.DSN)
	if err != nil {
		return scrubbed(err, secrets)
	}
	p, err := query.Prepare(cmd.Context(), "ch", c, version)
	if err != nil {
		return scrubbed(err, secrets)
	}
	for _, n := range p.Notes {
		fmt.Fprintln(env.Stderr, "dbmeter: "+n)
	}
	stop, err := metrics.ServePprof(f.PprofAddr, env.Stderr)
	if err != nil {
		return err
	}
	defer stop()
	s, err := newSession(env, "ch", rf.output, "", secrets...)
	if err != nil {
		return err
	}
	s.showProgress(rf)
	p.Plan.Search = search
	return scrubbed(s.Execute(cmd.Context(), p.Plan), secrets)
}

// chQueryFields names the flag that sets each field ch query's Resolve
// names in its messages: of query.Command, its Config and Worker, and the
// load settings.
func chQueryFields() map[string]string {
	return map[string]string{
		"DSN": "dsn", "ConnectTimeout": "connect-timeout", "HTTPURL": "http-url", "SQL": "query", "Args": "arg", "Database": "database", "Create": "create",
		"Prepared": "prepared", "Decodes": "decode", "Protocols": "protocol", "Matrix": "matrix",
		"MaxOpen": "pool-max-open", "MaxIdle": "pool-max-idle", "IdleTimeout": "pool-idle-timeout", "Lifetime": "pool-lifetime",
		"Clients": "clients", "NoWarmup": "no-warmup", "Preset": "preset", "SelectRows": "select-rows",
		"QueriesFile": "queries-file", "PprofAddr": "pprof-addr", "Find": "find-max-rate",
		"Cmd": "worker-cmd", "Timeout": "worker-timeout",
		"Workers": "workers", "Rate": "rate", "Warmup": "warmup", "MaxInFlight": "max-in-flight",
	}
}
