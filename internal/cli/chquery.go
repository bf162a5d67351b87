package cli

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/query/clients"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/metrics"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/result"
)

// chqDefaultRate is the open-loop rate `ch query` runs at unless told
// otherwise: the seed's 100 queries per second.
const chqDefaultRate = 100

// chqFlags are `ch query`'s own flags. Knob flags take comma lists; more
// than one value needs --matrix.
type chqFlags struct {
	dsn, httpURL, preset, sqlText, pprofAddr string
	clients, args                            []string
	prepared, decode, protocol               []string
	maxOpen, maxIdle, idleTimeout, lifetime  []string
	noWarmup, create, matrix                 bool
	data                                     query.Dataset
	sumWindow                                time.Duration
}

func (f *chqFlags) bind(fs *pflag.FlagSet) {
	def := query.DefaultDataset()
	fs.StringVar(&f.dsn, "dsn", "", "ClickHouse native address: clickhouse://user:password@host:port/db or tcp://host:port?username=…&password=…&database=…")
	fs.StringVar(&f.httpURL, "http-url", "", "the server's HTTP interface for the http protocol (default: $DBMETER_CLICKHOUSE_HTTP_URL, else http://HOST:8123 with HOST from --dsn)")
	fs.StringSliceVar(&f.clients, "clients", []string{"all"}, "client paths, comma-separated, or all (every client in this build that the server supports)")
	fs.StringVar(&f.preset, "preset", "", "query preset: "+strings.Join(query.PresetNames(), ", "))
	fs.StringVar(&f.sqlText, "query", "", "SQL to run instead of a preset, with ? placeholders")
	fs.StringArrayVar(&f.args, "arg", nil, "a value for the next ? of --query (repeat per placeholder; integers and floats are bound as numbers)")
	fs.StringSliceVar(&f.prepared, "prepared", []string{"false"}, "bind parameters through the client's prepare/bind API instead of inlining them (list: false,true)")
	fs.Lookup("prepared").NoOptDefVal = "true"
	fs.StringSliceVar(&f.decode, "decode", []string{string(query.Row)}, "walk results row by row or column by column (list: row,column)")
	fs.StringSliceVar(&f.protocol, "protocol", nil, "native or http (list); default: each client's own")
	fs.StringSliceVar(&f.maxOpen, "pool-max-open", []string{"0"}, "most connections open at once, 0: no limit (list)")
	fs.StringSliceVar(&f.maxIdle, "pool-max-idle", []string{"2"}, "most idle connections kept, 0: none, each query connects (list)")
	fs.StringSliceVar(&f.idleTimeout, "pool-idle-timeout", []string{"0s"}, "close connections idle this long, 0: never (list)")
	fs.StringSliceVar(&f.lifetime, "pool-lifetime", []string{"0s"}, "close connections this old, 0: never (list)")
	fs.BoolVar(&f.noWarmup, "no-warmup", false, "no warm-up: no first query to open a connection and no --warmup period")
	fs.BoolVar(&f.create, "create", false, "create or refresh dbmeter's own data set for the presets")
	fs.BoolVar(&f.matrix, "matrix", false, "run every combination of the listed knob values")
	fs.StringVar(&f.pprofAddr, "pprof-addr", "", "serve net/http/pprof here during the run, e.g. 127.0.0.1:6060")
	fs.StringVar(&f.data.Database, "database", def.Database, "database of dbmeter's data set (made and marked by dbmeter)")
	fs.Int64Var(&f.data.Events, "events-rows", def.Events, "rows of the events table (count preset)")
	fs.Int64Var(&f.data.Metrics, "metrics-rows", def.Metrics, "rows of the metrics table (sum preset)")
	fs.Int64Var(&f.data.Users, "users-rows", def.Users, "rows of the users table (select1k, select10k presets)")
	fs.DurationVar(&f.sumWindow, "sum-window", time.Hour, "time range of each sum preset query")
}

// chqCombo is one client × setting: one run per repetition.
type chqCombo struct {
	name   string
	client query.Client
	opts   query.Options
}

// knobs are the settings of a combination as the result's params record
// them; the report sets side by side the ones that vary.
func (c chqCombo) knobs() map[string]string {
	p := c.opts.Pool
	return map[string]string{
		"client": c.name, "protocol": string(c.opts.Protocol), "decode": string(c.opts.Decode),
		"prepared":      strconv.FormatBool(c.opts.Prepared),
		"pool-max-open": strconv.Itoa(p.MaxOpen), "pool-max-idle": strconv.Itoa(p.MaxIdle),
		"pool-idle-timeout": p.IdleTimeout.String(), "pool-lifetime": p.Lifetime.String(),
	}
}

func newCHQueryCmd(env Env) *cobra.Command {
	var rf runFlags
	var qf chqFlags
	cmd := &cobra.Command{
		Use:   "query",
		Short: "Query latency at a fixed rate per client, pool, prepare and decode setting",
		Long: `query runs one query shape through one or more ClickHouse client paths and
reports latency percentiles measured from each query's intended start (open
loop, 100/s by default), the achieved rate, connections opened and decode
time per row. --workers N without --rate runs closed loop with N workers;
with --rate, N workers are made up front and at most N queries are in flight
(unless --max-in-flight says otherwise), so a rate they cannot sustain shows
as a shortfall. Knob flags take comma lists; --matrix runs every
combination side by side.`,
		Example: `  dbmeter ch query --dsn "$DSN" --create --preset count --rate 100 --duration 10s --clients clickhouse-go-v1,http
  dbmeter ch query --dsn "$DSN" --preset select10k --decode row,column --matrix
  dbmeter ch query --dsn "$DSN" --query 'SELECT count() FROM system.numbers_mt WHERE number < ?' --arg 1000`,
		Args: noArgs,
	}
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		return runCHQuery(cmd, env, &rf, &qf)
	})
	def := load.DefaultConfig()
	def.Rate = chqDefaultRate
	rf.bind(cmd.Flags(), def)
	qf.bind(cmd.Flags())
	return cmd
}

func runCHQuery(cmd *cobra.Command, env Env, rf *runFlags, qf *chqFlags) error {
	ctx := cmd.Context()
	fs := cmd.Flags()
	cfg, err := chqLoadConfig(rf, qf)
	if err != nil {
		return err
	}
	if qf.dsn == "" {
		return usagef("--dsn is required: the ClickHouse server's native address")
	}
	dsn, err := ch.ParseDSN(qf.dsn)
	if err != nil {
		return usageError{err}
	}
	secrets := append(redact.Values(qf.dsn), dsn.Password)
	if qf.httpURL == "" {
		qf.httpURL = chqDefaultHTTPURL(env, dsn)
	}
	spec, preset, err := chqSpec(qf)
	if err != nil {
		return err
	}
	combos, skipped, err := chqCombos(fs, qf, dsn)
	if err != nil {
		return err
	}
	if err := qf.data.Validate(); err != nil && (preset != nil || qf.create) {
		return usageError{err}
	}

	version, err := serverVersion(cmd, dsn)
	if err != nil {
		return scrubbed(err, secrets)
	}
	named := !slices.Equal(trimAll(qf.clients), []string{"all"}) // clients the user listed by name
	combos, err = chqCompatible(env, combos, version, fs.Changed("clients") && named)
	if err != nil {
		return err
	}
	for _, s := range skipped {
		fmt.Fprintln(env.Stderr, "dbmeter: skipping "+s)
	}
	if preset != nil || qf.create {
		if spec, err = chqPrepareData(ctx, env, qf, dsn, preset, spec); err != nil {
			return scrubbed(err, secrets)
		}
	}
	if qf.pprofAddr != "" {
		stop, err := chqServePprof(env, qf.pprofAddr)
		if err != nil {
			return err
		}
		defer stop()
	}

	s, err := newSession(env, "ch", rf.output, "", secrets...)
	if err != nil {
		return err
	}
	base := flagParams(fs)
	for _, c := range combos {
		for rep := 1; rep <= rf.repeat && ctx.Err() == nil; rep++ {
			cfg.Seed = repeatSeed(rf.cfg.Seed, rep)
			run, err := chqRun(ctx, s, rf, qf, c, spec, cfg, version)
			if err != nil {
				s.abort()
				return fmt.Errorf("%s: %w", c.name, scrubbed(err, secrets))
			}
			run.Params = maps.Clone(base)
			maps.Copy(run.Params, c.knobs())
			run.Repeat = rep
			s.add(run)
		}
	}
	return s.finish(ctx)
}

// chqLoadConfig applies `ch query`'s reading of --workers and --rate:
// --workers alone is closed loop; with --rate it also bounds the queries
// in flight unless --max-in-flight is given.
func chqLoadConfig(rf *runFlags, qf *chqFlags) (load.Config, error) {
	changed := rf.fs.Changed
	if changed("workers") && !changed("rate") {
		rf.cfg.Rate = 0
	}
	if qf.noWarmup {
		if changed("warmup") && rf.cfg.Warmup > 0 {
			return load.Config{}, usagef("--no-warmup and --warmup %s contradict each other: give one", rf.cfg.Warmup)
		}
		rf.cfg.Warmup = 0
	}
	cfg, err := rf.config()
	if err != nil {
		return cfg, err
	}
	if cfg.Open() && changed("workers") && !changed("max-in-flight") {
		cfg.MaxInFlight = cfg.Workers
	}
	return cfg, nil
}

func chqDefaultHTTPURL(env Env, dsn ch.DSN) string {
	if env.Getenv != nil {
		if u := env.Getenv("DBMETER_CLICKHOUSE_HTTP_URL"); u != "" {
			return u
		}
	}
	host, _, _ := net.SplitHostPort(dsn.Addr)
	return "http://" + net.JoinHostPort(host, "8123")
}

// chqSpec reads --preset or --query; a preset's spec is finished once its
// data's ranges are known.
func chqSpec(qf *chqFlags) (query.Spec, *query.Preset, error) {
	switch {
	case qf.preset != "" && qf.sqlText != "":
		return query.Spec{}, nil, usagef("--preset and --query contradict each other: give one")
	case qf.preset == "" && qf.sqlText == "":
		return query.Spec{}, nil, usagef("give --preset (%s) or --query SQL", strings.Join(query.PresetNames(), ", "))
	case qf.preset != "":
		if len(qf.args) > 0 {
			return query.Spec{}, nil, usagef("--arg goes with --query; preset %s draws its own parameters", qf.preset)
		}
		p, ok := query.Presets()[qf.preset]
		if !ok {
			return query.Spec{}, nil, usagef("unknown preset %q: pick from %s", qf.preset, strings.Join(query.PresetNames(), ", "))
		}
		return query.Spec{}, &p, nil
	}
	if n := query.Placeholders(qf.sqlText); n != len(qf.args) {
		return query.Spec{}, nil, usagef("--query has %d ? placeholders but %d --arg values were given: give one --arg per placeholder", n, len(qf.args))
	}
	args := make([]any, len(qf.args))
	for i, a := range qf.args {
		args[i] = query.ParseArg(a)
	}
	return query.CustomSpec(qf.sqlText, args), nil, nil
}

// chqCombos expands clients × knob values. Combinations a client cannot
// run are an error outside --matrix and skipped (and said) inside it.
func chqCombos(fs *pflag.FlagSet, qf *chqFlags, dsn ch.DSN) (combos []chqCombo, skipped []string, err error) {
	names := trimAll(qf.clients)
	if len(names) == 1 && names[0] == "all" {
		names = clients.Names()
	}
	if len(names) == 0 {
		return nil, nil, usagef("--clients is empty: name at least one of %s", strings.Join(clients.Names(), ", "))
	}
	lists := map[string][]string{
		"prepared": trimAll(qf.prepared), "decode": trimAll(qf.decode), "protocol": trimAll(qf.protocol),
		"pool-max-open": trimAll(qf.maxOpen), "pool-max-idle": trimAll(qf.maxIdle),
		"pool-idle-timeout": trimAll(qf.idleTimeout), "pool-lifetime": trimAll(qf.lifetime),
	}
	for name, vals := range lists {
		if len(vals) > 1 && !qf.matrix {
			return nil, nil, usagef("--%s has %d values (%s): add --matrix to run each", name, len(vals), strings.Join(vals, ","))
		}
	}
	settings, err := chqSettings(lists)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range names {
		c, err := clients.Lookup(name)
		if err != nil {
			return nil, nil, usageError{err}
		}
		protocols := lists["protocol"]
		if len(protocols) == 0 {
			protocols = []string{string(c.Protocols[0])}
		}
		for _, proto := range protocols {
			for _, o := range settings {
				o.DSN, o.HTTPURL, o.Protocol = dsn, qf.httpURL, query.Protocol(proto)
				if err := o.Validate(); err != nil {
					return nil, nil, usageError{err}
				}
				why := ""
				switch {
				case !c.Speaks(o.Protocol):
					why = fmt.Sprintf("%s speaks %s, not %s", name, chqProtocols(c), o.Protocol)
				case o.Prepared && !c.Prepare:
					why = fmt.Sprintf("%s has no prepare or bind API (parameters are always inlined): drop --prepared", name)
				}
				if why != "" {
					if !qf.matrix {
						return nil, nil, usagef("%s", why)
					}
					skipped = append(skipped, fmt.Sprintf("%s with protocol %s, prepared %t: %s", name, o.Protocol, o.Prepared, why))
					continue
				}
				combos = append(combos, chqCombo{name: name, client: c, opts: o})
			}
		}
	}
	if len(combos) == 0 {
		return nil, skipped, usagef("no client can run the settings given (%s)", strings.Join(skipped, "; "))
	}
	return combos, skipped, nil
}

func chqProtocols(c query.Client) string {
	var out []string
	for _, p := range c.Protocols {
		out = append(out, string(p))
	}
	return strings.Join(out, " and ")
}

// chqSettings is the cartesian product of the knob lists.
func chqSettings(lists map[string][]string) ([]query.Options, error) {
	out := []query.Options{{Pool: query.DefaultPool()}}
	expand := func(flag string, apply func(o *query.Options, v string) error) error {
		vals := lists[flag]
		if len(vals) == 0 {
			return nil
		}
		var next []query.Options
		for _, o := range out {
			for _, v := range vals {
				o := o
				if err := apply(&o, v); err != nil {
					return usagef("--%s %q: %v", flag, v, err)
				}
				next = append(next, o)
			}
		}
		out = next
		return nil
	}
	steps := []struct {
		flag  string
		apply func(o *query.Options, v string) error
	}{
		{"prepared", func(o *query.Options, v string) (err error) { o.Prepared, err = strconv.ParseBool(v); return }},
		{"decode", func(o *query.Options, v string) error {
			o.Decode = query.Decode(v)
			if o.Decode != query.Row && o.Decode != query.Column {
				return fmt.Errorf("want row or column")
			}
			return nil
		}},
		{"pool-max-open", func(o *query.Options, v string) (err error) { o.Pool.MaxOpen, err = chqCount(v); return }},
		{"pool-max-idle", func(o *query.Options, v string) (err error) { o.Pool.MaxIdle, err = chqCount(v); return }},
		{"pool-idle-timeout", func(o *query.Options, v string) (err error) { o.Pool.IdleTimeout, err = chqDuration(v); return }},
		{"pool-lifetime", func(o *query.Options, v string) (err error) { o.Pool.Lifetime, err = chqDuration(v); return }},
	}
	for _, s := range steps {
		if err := expand(s.flag, s.apply); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func chqCount(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a whole number, 0 or more")
	}
	return n, nil
}

func chqDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want a duration such as 30s, 0 or more")
	}
	return d, nil
}

// chqCompatible refuses clients too new for the server: with an explicit
// --clients list that is an error; with "all" they are left out and said.
func chqCompatible(env Env, combos []chqCombo, server ch.Version, explicit bool) ([]chqCombo, error) {
	var out []chqCombo
	told := map[string]bool{}
	for _, c := range combos {
		err := ch.CheckServer(c.name, server, c.client.MinServer)
		if err == nil {
			out = append(out, c)
			continue
		}
		if explicit {
			return nil, usageError{err}
		}
		if !told[c.name] {
			fmt.Fprintf(env.Stderr, "dbmeter: skipping %s: %v\n", c.name, err)
			told[c.name] = true
		}
	}
	if len(out) == 0 {
		return nil, usagef("no client in --clients can talk to ClickHouse %s: use clickhouse-go-v1 or http", server)
	}
	return out, nil
}

// chqPrepareData makes (with --create) and reads dbmeter's data set, and
// binds the preset to its ranges. It talks through clickhouse-go v1's
// database/sql driver, which every server version understands.
func chqPrepareData(ctx context.Context, env Env, qf *chqFlags, dsn ch.DSN, preset *query.Preset, spec query.Spec) (query.Spec, error) {
	db, err := sql.Open(ch.V1Driver, dsn.V1())
	if err != nil {
		return spec, fmt.Errorf("connect to ClickHouse %s: %w", dsn.Addr, err)
	}
	defer db.Close()
	data := qf.data
	data.Seed = chqDataSeed
	if qf.create {
		start := time.Now()
		made, err := data.Create(ctx, db)
		if err != nil {
			return spec, err
		}
		if made {
			fmt.Fprintf(env.Stderr, "dbmeter: created data set %s (events %d, metrics %d, users %d rows) in %s\n",
				data.Database, data.Events, data.Metrics, data.Users, time.Since(start).Round(time.Millisecond))
		}
	}
	if preset == nil {
		return spec, nil
	}
	ranges, err := data.LoadRanges(ctx, db, preset.Table, qf.sumWindow)
	if err != nil {
		return spec, err
	}
	return preset.Spec(data.Database, ranges), nil
}

// chqDataSeed seeds the data set. It is fixed rather than --seed, so that
// repetitions and runs with other seeds query the same data.
const chqDataSeed = 1

func chqServePprof(env Env, addr string) (stop func(), err error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, usagef("--pprof-addr %q: want HOST:PORT such as 127.0.0.1:6060", addr)
	}
	addr = metrics.LoopbackDefault(addr)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usagef("--pprof-addr: %v", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	if !metrics.IsLoopback(addr) {
		fmt.Fprintf(env.Stderr, "dbmeter: warning: --pprof-addr %s is not a loopback address: anyone who can reach this machine can profile dbmeter\n", addr)
	}
	fmt.Fprintf(env.Stderr, "dbmeter: pprof at http://%s/debug/pprof/\n", ln.Addr())
	return func() { srv.Close() }, nil
}

// chqRun measures one combination once.
func chqRun(ctx context.Context, s *session, rf *runFlags, qf *chqFlags, c chqCombo, spec query.Spec, cfg load.Config, server ch.Version) (result.Run, error) {
	q, err := c.client.Open(ctx, c.opts)
	if err != nil {
		return result.Run{}, err
	}
	defer q.Close()
	if !qf.noWarmup {
		// The seed's warm-up ping: one query opens the first connection
		// before anything is timed.
		if _, err := q.Query(ctx, "SELECT 1"); err != nil {
			return result.Run{}, fmt.Errorf("first query: %w", err)
		}
	}
	wl := query.NewWorkload(q, spec, c.opts.Prepared)
	startPool := make(chan query.PoolStats, 1)
	cfg.Phases = query.Phases
	cfg.OnMeasure = func() { startPool <- q.Pool() }
	label := c.name + "/" + spec.Name
	res, err := load.Run(ctx, cfg, wl.Ops(), wl.NewWorker, s.watcher(rf, label))
	if err != nil {
		return result.Run{}, err
	}
	end := q.Pool()
	var pool query.PoolStats
	select {
	case from := <-startPool:
		pool = end.Sub(from)
	default: // interrupted during warm-up
	}
	run := res.Fill(result.Run{Family: "ch", Target: c.name, Workload: spec.Name, Server: server.String()}, cfg, 0)
	chqFigures(&run, wl, pool)
	run.Warnings = append(run.Warnings, chqWarnings(run, wl, c, cfg)...)
	return run, nil
}

// chqFigures adds the decode phase and the pool and rate figures.
func chqFigures(run *result.Run, wl *query.Workload, pool query.PoolStats) {
	x := map[string]float64{}
	if run.DurationS > 0 {
		x["achieved_rate_ops_s"] = float64(run.Ops+run.Errors) / run.DurationS
	}
	if run.Rows > 0 {
		x["decode_ns_per_row"] = float64(run.Phases["decode"].TotalNs) / float64(run.Rows)
	}
	if n := run.Ops; n > 0 {
		x["rows_per_query"] = float64(run.Rows) / float64(n)
	}
	put := func(key string, v int64) {
		if v >= 0 {
			x[key] = float64(v)
		}
	}
	put("conns_opened", pool.Opened)
	put("conns_closed", pool.Closed)
	put("conn_setup_ns_total", pool.SetupNs)
	if pool.Opened > 0 && pool.SetupNs >= 0 {
		x["conn_setup_ns_mean"] = float64(pool.SetupNs) / float64(pool.Opened)
	}
	put("pool_waits", pool.Waits)
	put("pool_wait_ns_total", pool.WaitNs)
	run.Extra = x
}

func chqWarnings(run result.Run, wl *query.Workload, c chqCombo, cfg load.Config) []string {
	var out []string
	if err := wl.ServerError(); err != nil {
		out = append(out, oneLine(err))
	}
	if cfg.Open() && run.DurationS > 0 && !run.Interrupted {
		achieved := float64(run.Ops+run.Errors) / run.DurationS
		if achieved < 0.99*cfg.Rate {
			out = append(out, fmt.Sprintf("achieved %.1f queries/s of the %g/s requested (%.1f%% short): the server or the %d queries allowed in flight could not keep up",
				achieved, cfg.Rate, 100*(1-achieved/cfg.Rate), cfg.MaxInFlight))
		}
	}
	if ign := c.client.Ignores(c.opts.Pool); len(ign) > 0 {
		out = append(out, fmt.Sprintf("%s cannot honour --%s: those settings had no effect", c.name, strings.Join(ign, ", --")))
	}
	return out
}
