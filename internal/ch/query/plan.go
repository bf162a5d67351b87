package query

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Named is a client path with its name.
type Named struct {
	Name   string
	Client Client
}

// Config is one `ch query` command: a query shape run through client paths
// at every combination of the knob values.
type Config struct {
	DSN     ch.DSN
	HTTPURL string
	// HTTPDerived says HTTPURL is not the user's --http-url but derived
	// from the environment or --dsn: an http client runs only once
	// SameServer has found it the server DSN names.
	HTTPDerived bool
	// Clients run in order. Listed says the user named them: one too new
	// for the server is then refused rather than left out.
	Clients []Named
	Listed  bool
	// Known are every client path in this build, suggested by name when a
	// listed one is too new for the server; none when empty.
	Known []Named
	// Preset names a query over dbmeter's data set; otherwise SQL runs with
	// Args, one per ? placeholder.
	Preset string
	SQL    string
	Args   []string
	// Mix, read from a query file (ParseMix), runs its queries in one
	// stream instead of a preset or SQL: each arrival picks one by weight.
	Mix []MixQuery
	// Search says a capacity search runs each setting: it finds one
	// query's capacity, so it takes no Mix.
	Search bool
	// Knob values; with more than one value of any, Matrix must be set and
	// every combination runs. Protocols empty: each client's own.
	Prepared    []bool
	Decodes     []Decode
	Protocols   []Protocol
	MaxOpen     []int
	MaxIdle     []int
	IdleTimeout []time.Duration
	Lifetime    []time.Duration
	Matrix      bool
	// Create makes or refreshes Data; the presets read it.
	Create    bool
	Data      Dataset
	SumWindow time.Duration
	// SelectRows is how many rows the numbers preset reads.
	SelectRows int
	// NoWarmup skips the first query that opens a connection before the
	// run.
	NoWarmup bool
	// NoServerStats turns off reading the server's own figures
	// (system.query_log, system.events).
	NoServerStats bool
	// Worker configures the clients that run as worker processes.
	Worker Worker
	Load   load.Config
	// Rates and WorkerCounts, when given, replace Load.Rate and
	// Load.Workers by lists: every combination runs once per client and
	// setting (a sweep), each a variant of its own.
	Rates        []float64
	WorkerCounts []int
	Repeat       int
	// Params are the command's settings as every run records them.
	Params map[string]string
}

// dataSeed seeds the data set. It is fixed rather than the run's seed, so
// that repetitions and runs with other seeds query the same data.
const dataSeed = 1

// Combo is one client × knob setting: one run per repetition.
type Combo struct {
	Name   string
	Client Client
	Opts   Options
}

// knobs are the settings of a combination as the result's params record
// them; the report sets side by side the ones that vary.
func (c Combo) knobs() map[string]string {
	p := c.Opts.Pool
	return map[string]string{
		"client": c.Name, "protocol": string(c.Opts.Protocol), "decode": string(c.Opts.Decode),
		"prepared":      strconv.FormatBool(c.Opts.Prepared),
		"pool_max_open": strconv.Itoa(p.MaxOpen), "pool_max_idle": strconv.Itoa(p.MaxIdle),
		"pool_idle_timeout": p.IdleTimeout.String(), "pool_lifetime": p.Lifetime.String(),
	}
}

// Validate reports the first setting that cannot work, without touching a
// server.
func (c Config) Validate() error {
	if c.Search && len(c.Mix) > 0 {
		return errors.New("{Find} searches one query's capacity, not a {QueriesFile} mix: run the mix at a {Rate}")
	}
	if _, _, err := c.spec(); err != nil {
		return err
	}
	if c.Preset != "" || c.Create {
		if err := c.Data.Validate(); err != nil {
			return err
		}
	}
	if readsNumbers(c.Preset) && (c.SelectRows < 1 || c.SelectRows > NumbersRows) {
		return fmt.Errorf("{SelectRows} must be 1 to %d (the rows of the numbers table), got %d", NumbersRows, c.SelectRows)
	}
	_, _, err := c.Combos()
	return err
}

// spec reads the preset or the SQL; a preset's spec is finished once its
// data's ranges are known.
func (c Config) spec() (Spec, *Preset, error) {
	switch {
	case len(c.Mix) > 0 && (c.Preset != "" || c.SQL != "" || len(c.Args) > 0):
		return Spec{}, nil, errors.New("a query file runs its own queries: give it alone, without a preset, a query or arguments")
	case len(c.Mix) > 0:
		return Spec{Name: MixName}, nil, nil
	case c.Preset != "" && c.SQL != "":
		return Spec{}, nil, errors.New("{Preset} and {SQL} contradict each other: give one")
	case c.Preset == "" && c.SQL == "":
		return Spec{}, nil, fmt.Errorf("give {Preset} (%s) or {SQL}", strings.Join(PresetNames(), ", "))
	case c.Preset != "":
		if len(c.Args) > 0 {
			return Spec{}, nil, fmt.Errorf("{Args} goes with {SQL}; preset %s draws its own parameters", c.Preset)
		}
		p, ok := Presets()[c.Preset]
		if !ok {
			return Spec{}, nil, fmt.Errorf("unknown preset %q: pick from %s", c.Preset, strings.Join(PresetNames(), ", "))
		}
		return Spec{}, &p, nil
	}
	if n := Placeholders(c.SQL); n != len(c.Args) {
		return Spec{}, nil, fmt.Errorf("{SQL} has %d ? placeholders but %d {Args} values were given: give one {Args} per placeholder", n, len(c.Args))
	}
	args := make([]any, len(c.Args))
	for i, a := range c.Args {
		args[i] = ParseArg(a)
	}
	return CustomSpec(c.SQL, args), nil, nil
}

// Combos expands clients × knob values. Combinations a client cannot run
// are an error outside Matrix and skipped (each said in skipped) inside it.
func (c Config) Combos() (combos []Combo, skipped []string, err error) {
	if len(c.Clients) == 0 {
		return nil, nil, errors.New("{Clients} is empty: name at least one client")
	}
	for field, n := range map[string]int{
		"Prepared": len(c.Prepared), "Decodes": len(c.Decodes), "Protocols": len(c.Protocols),
		"MaxOpen": len(c.MaxOpen), "MaxIdle": len(c.MaxIdle),
		"IdleTimeout": len(c.IdleTimeout), "Lifetime": len(c.Lifetime),
	} {
		if n > 1 && !c.Matrix {
			return nil, nil, fmt.Errorf("{%s} has %d values: add {Matrix} to run each", field, n)
		}
	}
	for _, d := range c.Decodes {
		if d != Row && d != Column {
			return nil, nil, fmt.Errorf("{Decodes} %q: want row or column", d)
		}
	}
	settings := c.settings()
	var skips skipList
	for _, n := range c.Clients {
		protocols := c.Protocols
		if len(protocols) == 0 {
			protocols = n.Client.Protocols[:1]
		}
		for _, proto := range protocols {
			for _, o := range settings {
				o.DSN, o.HTTPURL, o.Protocol, o.Worker = c.DSN, c.HTTPURL, proto, c.Worker
				if err := o.Validate(); err != nil {
					return nil, nil, err
				}
				why := ""
				switch {
				case !n.Client.Speaks(o.Protocol):
					why = fmt.Sprintf("%s speaks %s, not %s", n.Name, protocolList(n.Client), o.Protocol)
				case o.Prepared && !n.Client.Prepare:
					why = fmt.Sprintf("%s has no prepare or bind API (parameters are always inlined): drop {Prepared}", n.Name)
				}
				if why != "" {
					if !c.Matrix {
						return nil, nil, errors.New(why)
					}
					skips.add(n.Name, why, Combo{Name: n.Name, Client: n.Client, Opts: o}.knobs())
					continue
				}
				combos = append(combos, Combo{Name: n.Name, Client: n.Client, Opts: o})
			}
		}
	}
	skipped = skips.lines(c.listed())
	if len(combos) == 0 {
		return nil, skipped, fmt.Errorf("no client can run the settings given (%s)", strings.Join(skipped, "; "))
	}
	return combos, skipped, nil
}

// listed are the knobs given more than one value, which a skip line names
// the values of; protocol and prepared, the reasons a combination is
// skipped, are always named.
func (c Config) listed() []string {
	out := []string{"protocol", "prepared"}
	for _, k := range []struct {
		name string
		n    int
	}{{"decode", len(c.Decodes)}, {"pool_max_open", len(c.MaxOpen)}, {"pool_max_idle", len(c.MaxIdle)},
		{"pool_idle_timeout", len(c.IdleTimeout)}, {"pool_lifetime", len(c.Lifetime)}} {
		if k.n > 1 {
			out = append(out, k.name)
		}
	}
	return out
}

// skipList gathers the combinations a matrix skips by client and reason,
// so that one line names every setting a reason covers.
type skipList struct {
	groups []*skipGroup
}

type skipGroup struct {
	client, why string
	n           int
	values      map[string][]string // knob → distinct values, in order met
}

func (l *skipList) add(client, why string, knobs map[string]string) {
	var g *skipGroup
	for _, x := range l.groups {
		if x.client == client && x.why == why {
			g = x
		}
	}
	if g == nil {
		g = &skipGroup{client: client, why: why, values: map[string][]string{}}
		l.groups = append(l.groups, g)
	}
	g.n++
	for k, v := range knobs {
		if !slices.Contains(g.values[k], v) {
			g.values[k] = append(g.values[k], v)
		}
	}
}

func (l *skipList) lines(knobs []string) []string {
	var out []string
	for _, g := range l.groups {
		var with []string
		for _, k := range knobs {
			with = append(with, result.Label(k)+" "+strings.Join(g.values[k], " and "))
		}
		count := ""
		if g.n > 1 {
			count = fmt.Sprintf(" (%d combinations)", g.n)
		}
		out = append(out, fmt.Sprintf("%s with %s%s: %s", g.client, strings.Join(with, ", "), count, g.why))
	}
	return out
}

func protocolList(c Client) string {
	var out []string
	for _, p := range c.Protocols {
		out = append(out, string(p))
	}
	return strings.Join(out, " and ")
}

// settings is the cartesian product of the knob values, in the order
// prepared, decode, max open, max idle, idle timeout, lifetime.
func (c Config) settings() []Options {
	out := []Options{{Pool: DefaultPool(), Decode: Row}}
	out = expand(out, c.Prepared, func(o *Options, v bool) { o.Prepared = v })
	out = expand(out, c.Decodes, func(o *Options, v Decode) { o.Decode = v })
	out = expand(out, c.MaxOpen, func(o *Options, v int) { o.Pool.MaxOpen = v })
	out = expand(out, c.MaxIdle, func(o *Options, v int) { o.Pool.MaxIdle = v })
	out = expand(out, c.IdleTimeout, func(o *Options, v time.Duration) { o.Pool.IdleTimeout = v })
	return expand(out, c.Lifetime, func(o *Options, v time.Duration) { o.Pool.Lifetime = v })
}

func expand[T any](in []Options, vals []T, set func(o *Options, v T)) []Options {
	if len(vals) == 0 {
		return in
	}
	out := make([]Options, 0, len(in)*len(vals))
	for _, o := range in {
		for _, v := range vals {
			o := o
			set(&o, v)
			out = append(out, o)
		}
	}
	return out
}

// GateError is a client too new for the server that the user listed, or
// no client left that can talk to it. Prepare returns it as a usage error:
// the user has to pick other clients.
type GateError struct{ Err error }

func (e *GateError) Error() string { return e.Err.Error() }
func (e *GateError) Unwrap() error { return e.Err }

// Prepared is a plan and what preparing it found worth saying.
type Prepared struct {
	Plan plan.Plan
	// Notes are lines for the user: combinations skipped, clients left
	// out, a data set made.
	Notes []string
}

// Prepare validates c, refuses clients too new for server, makes (with
// Create) and reads the data set, and returns the plan of family's runs:
// one step per combination.
func Prepare(ctx context.Context, family string, c Config, server ch.Version) (*Prepared, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	spec, preset, _ := c.spec()
	combos, skipped, _ := c.Combos()
	p := &Prepared{}
	for _, s := range skipped {
		p.Notes = append(p.Notes, "skipping "+s)
	}
	ok, notes, err := c.gate(combos, server)
	if err != nil {
		return nil, err
	}
	p.Notes = append(p.Notes, notes...)
	if len(ok) == 0 {
		return nil, usage.Wrap(&GateError{fmt.Errorf("no client in {Clients} can talk to ClickHouse %s: use %s", server, strings.Join(c.supporting(server), " or "))})
	}
	if c.HTTPDerived && slices.ContainsFunc(ok, func(cb Combo) bool { return cb.Opts.Protocol == HTTP }) {
		if err := SameServer(ctx, c.DSN, c.HTTPURL); err != nil {
			return nil, usage.Errorf("the http client would query %s, which {DSN} does not name, and it could not be checked to be the same server (%v): give {HTTPURL}", redact.String(c.HTTPURL), err)
		}
	}
	if preset != nil || c.Create {
		var note string
		if spec, note, err = c.prepareData(ctx, preset, spec); err != nil {
			return nil, err
		}
		if note != "" {
			p.Notes = append(p.Notes, note)
		}
	}
	// Interleaved: every client and setting once, then all again, so that
	// the settings compared see the same moments of the machine.
	p.Plan = plan.Plan{Family: family, Repeat: c.Repeat, Seed: c.Load.Seed, Interleave: true, Steps: c.steps(ok, spec, server)}
	return p, nil
}

// gate keeps the combos whose client can talk to server. A client that
// needs a newer server is skipped with one note per minimum version, naming its
// clients, unless the clients were listed by hand: then it is an error.
func (c Config) gate(combos []Combo, server ch.Version) (ok []Combo, notes []string, err error) {
	told := map[string]bool{}
	var tooNew []string // one line per minimum version, naming its clients
	needs := map[string][]string{}
	for _, cb := range combos {
		if err := c.DSN.Check(cb.Name, cb.Client.DSN); err != nil {
			return nil, nil, usage.Wrap(err)
		}
		err := ch.CheckServer(cb.Name, server, cb.Client.minServer(cb.Opts.Protocol))
		if err == nil {
			ok = append(ok, cb)
			continue
		}
		if c.Listed {
			return nil, nil, usage.Wrap(&GateError{ch.Suggest(err, c.supporting(server))})
		}
		if !told[cb.Name] {
			var old *ch.TooOldError
			if errors.As(err, &old) {
				why := fmt.Sprintf("ClickHouse %s or newer; the server is %s", old.Min, old.Server)
				if needs[why] == nil {
					tooNew = append(tooNew, why)
				}
				needs[why] = append(needs[why], cb.Name)
			}
			told[cb.Name] = true
		}
	}
	for _, why := range tooNew {
		verb := "it needs"
		if len(needs[why]) > 1 {
			verb = "they need"
		}
		notes = append(notes, fmt.Sprintf("skipping %s: %s %s", strings.Join(needs[why], ", "), verb, why))
	}
	return ok, notes, nil
}

// steps makes one step per load variant and client, variants outermost.
func (c Config) steps(ok []Combo, spec Spec, server ch.Version) []plan.Step {
	var steps []plan.Step
	variants := c.loadVariants()
	for _, v := range variants {
		for _, cb := range ok {
			r := &runner{c: v, combo: cb, spec: spec, server: server}
			target := cb.Name
			if len(variants) > 1 {
				target += fmt.Sprintf(" rate=%g workers=%d", v.Load.Rate, v.Load.Workers)
			}
			st := plan.Step{Target: target, Workload: spec.Name, Run: r.run}
			for _, m := range c.Mix {
				st.Ops = append(st.Ops, m.Name)
			}
			steps = append(steps, st)
		}
	}
	return steps
}

// loadVariants is c once per combination of Rates and WorkerCounts, the
// rate varying slowest; c alone when neither is a list. With both a rate
// and workers, the workers also bound the queries in flight, as a single
// --rate with --workers does.
func (c Config) loadVariants() []Config {
	rates, workers := c.Rates, c.WorkerCounts
	if len(rates) == 0 {
		rates = []float64{c.Load.Rate}
	}
	if len(workers) == 0 {
		workers = []int{c.Load.Workers}
	}
	if len(rates) == 1 && len(workers) == 1 {
		return []Config{c}
	}
	var out []Config
	for _, ix := range plan.Cross(len(rates), len(workers)) {
		v := c
		v.Load.Rate, v.Load.Workers = rates[ix[0]], workers[ix[1]]
		if v.Load.Open() && len(c.WorkerCounts) > 0 {
			v.Load.MaxInFlight = v.Load.Workers
		}
		v.Params = maps.Clone(c.Params)
		if v.Params != nil {
			v.Params["rate"] = strconv.FormatFloat(v.Load.Rate, 'f', -1, 64)
			v.Params["workers"] = strconv.Itoa(v.Load.Workers)
		}
		out = append(out, v)
	}
	return out
}

// prepareData makes (with Create) and reads dbmeter's data set, and binds
// the preset to its ranges. It talks through clickhouse-go v1's
// database/sql driver, which every server version understands.
func (c Config) prepareData(ctx context.Context, preset *Preset, spec Spec) (Spec, string, error) {
	db, err := sql.Open(ch.V1Driver, c.DSN.Admin().V1())
	if err != nil {
		return spec, "", fmt.Errorf("connect to ClickHouse %s: %w", c.DSN.Addr, err)
	}
	defer db.Close()
	data := c.Data
	data.Seed = dataSeed
	note := ""
	if c.Create {
		start := time.Now()
		made, err := data.Create(ctx, db)
		if err != nil {
			return spec, "", err
		}
		if made {
			note = fmt.Sprintf("created data set %s (events %d, metrics %d, users %d rows) in %s",
				data.Database, data.Events, data.Metrics, data.Users, time.Since(start).Round(time.Millisecond))
		}
	}
	if preset == nil {
		return spec, note, nil
	}
	ranges, err := data.LoadRanges(ctx, db, preset.Table, c.SumWindow)
	if err != nil {
		return spec, note, err
	}
	ranges.Rows = c.SelectRows
	return preset.Spec(data.Database, ranges), note, nil
}

// runner measures one combination.
type runner struct {
	c      Config
	combo  Combo
	spec   Spec
	server ch.Version
}

// run measures one repetition.
func (r *runner) run(ctx context.Context, rep plan.Rep) ([]result.Run, error) {
	opts := r.combo.Opts
	var stats *statsCapture
	if !r.c.NoServerStats {
		stats = startStats(ctx, r.c.DSN)
		if stats.setLog {
			opts = opts.LoggingQueries()
		}
	}
	q, err := r.combo.Client.Open(ctx, opts)
	if err != nil {
		if stats != nil {
			stats.finish(ctx)
		}
		return nil, err
	}
	defer q.Close()
	if !r.c.NoWarmup {
		// The seed's warm-up ping: one query opens the first connection
		// before anything is timed.
		if _, err := q.Query(ctx, "SELECT 1"); err != nil {
			return nil, fmt.Errorf("first query: %w", err)
		}
	}
	cfg := r.c.Load
	cfg.Seed = rep.Seed
	wl := NewWorkload(q, r.spec, r.combo.Opts.Prepared)
	if len(r.c.Mix) > 0 {
		wl = NewMixWorkload(q, r.c.Mix, rep.Seed, r.combo.Opts.Prepared)
	}
	startPool := make(chan PoolStats, 1)
	if rep.Rate > 0 { // a capacity search's step
		cfg.Rate = rep.Rate
	}
	cfg.Phases = Phases
	x, external := q.(External)
	if external {
		cfg.Phases = append(slices.Clone(Phases), extworker.Client)
	}
	var starting sync.WaitGroup
	cfg.OnMeasure = func() {
		startPool <- q.Pool()
		if stats != nil {
			// Its own connection, beside the measured queries; OnMeasure
			// must not block the runner.
			starting.Go(func() { stats.begin(ctx) })
		}
	}
	if stats != nil && stats.log && !external {
		wl.TagQueries(stats.prefix)
		cfg.OnTagged = stats.tagged
	}
	res, err := load.Run(ctx, cfg, wl.Ops(), wl.NewWorker, rep.Watch)
	starting.Wait()
	if err != nil {
		if stats != nil {
			stats.finish(ctx)
		}
		return nil, err
	}
	pool := poolSince(startPool, q.Pool())
	base := r.base(rep)
	op := 0
	if len(r.c.Mix) > 0 {
		op = -1 // the mix: every query
	}
	run := res.Fill(base, cfg, op)
	figures(&run, pool)
	if stats != nil {
		r.serverStats(ctx, &run, stats, external)
	}
	run.Warnings = append(run.Warnings, warnings(run, wl, r.combo, cfg)...)
	if external {
		externalFigures(&run, x)
	}
	return append([]result.Run{run}, r.mixRuns(res, cfg, base)...), nil
}

// poolSince is the pool's figures from the start of the measured window
// (sent on start) to end; zero when the run was interrupted during its
// warm-up and the window never began.
func poolSince(start <-chan PoolStats, end PoolStats) PoolStats {
	select {
	case from := <-start:
		return end.Sub(from)
	default:
		return PoolStats{}
	}
}

// externalFigures are an external client's: its library decodes inside
// its own timing ("client"), and its workers are counted.
func externalFigures(run *result.Run, x External) {
	delete(run.Phases, "decode")
	delete(run.Extra, "decode_ns_per_row")
	extworker.Fill(run, x.Workers())
}

// base is what every run of rep records of the runner's settings.
func (r *runner) base(rep plan.Rep) result.Run {
	params := maps.Clone(r.c.Params)
	if params == nil {
		params = map[string]string{}
	}
	maps.Copy(params, r.combo.knobs())
	if r.combo.Opts.Protocol == HTTP {
		params["http_url"] = redact.String(r.combo.Opts.HTTPURL)
	} else if r.combo.Opts.DSN.Compress != "" {
		params["compress"] = r.combo.Opts.DSN.Compress // a defining setting: blocks compressed on the wire
	}
	return result.Run{Family: "ch", Target: r.combo.Name, Workload: r.spec.Name, Server: r.server.String(), Params: params, Repeat: rep.N}
}

// serverStats ends stats' capture into run, warning when the server
// logged fewer queries than were measured. An external client's queries
// carry no query id, so its log cannot be joined.
func (r *runner) serverStats(ctx context.Context, run *result.Run, stats *statsCapture, external bool) {
	if external && stats.log {
		stats.log = false
		stats.unavailable("system.query_log: the worker protocol carries no query id, so the server's records cannot be joined to " + r.combo.Name + "'s queries")
	}
	run.ServerStats = stats.finish(ctx)
	if s := run.ServerStats; s.LatencyNs != nil && s.LatencyNs.Count < run.Ops {
		run.Warnings = append(run.Warnings, fmt.Sprintf("the server logged %d of the %d measured queries (%d not logged, %d failed on the server): its figures describe those it logged",
			s.LatencyNs.Count, run.Ops, s.NotLogged, s.Exceptions))
	}
}

// mixRuns are a query file's queries, each on its own, after the mix: the
// same measured window, each with its share of the arrivals. The mix run
// carries what the queries share (the pool, the server's figures).
func (r *runner) mixRuns(res *load.Result, cfg load.Config, base result.Run) []result.Run {
	var total uint64
	for _, m := range r.c.Mix {
		total += m.Weight
	}
	var out []result.Run
	for i, m := range r.c.Mix {
		run := base
		run.Workload, run.Params = m.Name, maps.Clone(base.Params)
		run.Params["query"], run.Params["query_weight"] = m.SQL, strconv.FormatUint(m.Weight, 10)
		run = res.Fill(run, cfg, i)
		run.Rate = cfg.Rate * float64(m.Weight) / float64(total)
		x := FigureDeclarations()
		if run.DurationS > 0 {
			x.Set(&run, "achieved_rate_ops_s", float64(run.Ops+run.Errors)/run.DurationS)
		}
		if run.Ops > 0 {
			x.Set(&run, "rows_per_query", float64(run.Rows)/float64(run.Ops))
		}
		out = append(out, run)
	}
	return out
}

// figures are the decode phase per row and the pool and rate figures.
func figures(run *result.Run, pool PoolStats) {
	x := FigureDeclarations()
	if run.DurationS > 0 {
		x.Set(run, "achieved_rate_ops_s", float64(run.Ops+run.Errors)/run.DurationS)
	}
	if run.Rows > 0 {
		x.Set(run, "decode_ns_per_row", float64(run.Phases["decode"].TotalNs)/float64(run.Rows))
	}
	if n := run.Ops; n > 0 {
		x.Set(run, "rows_per_query", float64(run.Rows)/float64(n))
	}
	put := func(key string, v int64) {
		if v >= 0 {
			x.Set(run, key, float64(v))
		}
	}
	put("conns_opened", pool.Opened)
	put("conns_closed", pool.Closed)
	put("conn_setup_ns_total", pool.SetupNs)
	if pool.Opened > 0 && pool.SetupNs >= 0 {
		x.Set(run, "conn_setup_ns_mean", float64(pool.SetupNs)/float64(pool.Opened))
	}
	put("pool_waits", pool.Waits)
	put("pool_wait_ns_total", pool.WaitNs)
	reuse(run, pool)
}

// reuse records seed 001's two pool figures: the share of queries that
// reused a connection rather than open one (复用率), and the share of the
// queries' time spent opening connections (连接建立耗时占比), of the
// service time (from each query's actual start).
func reuse(run *result.Run, pool PoolStats) {
	if run.Ops <= 0 || pool.Opened < 0 {
		return
	}
	x := FigureDeclarations()
	x.Set(run, "conn_reuse_pct", 100*(1-float64(min(pool.Opened, run.Ops))/float64(run.Ops)))
	busy := run.Service.Mean * float64(run.Ops)
	if busy <= 0 {
		busy = run.Latency.Mean * float64(run.Ops)
	}
	if pool.SetupNs >= 0 && busy > 0 {
		x.Set(run, "conn_setup_share_pct", 100*min(float64(pool.SetupNs)/busy, 1))
	}
}

// FigureDeclarations declares the extra figures a query run writes, with
// how the shards of one test merge them.
func FigureDeclarations() result.Declarations {
	d := result.Declarations{
		// Shards' rates add over the common window.
		"achieved_rate_ops_s": result.Sum("ops/s"),
		"decode_ns_per_row":   result.Mean("ns", "rows"),
		"rows_per_query":      result.Mean("rows", "ops"),
		"conns_opened":        result.Sum("connections"),
		"conns_closed":        result.Sum("connections"),
		"conn_setup_ns_total": result.Sum("ns"),
		"conn_setup_ns_mean":  result.Mean("ns", "conns_opened"),
		"pool_waits":          result.Sum("waits"),
		"pool_wait_ns_total":  result.Sum("ns"),
		// Seed 001's reuse rate and connection-setup share (reuse).
		"conn_reuse_pct":       result.Mean("%", "ops"),
		"conn_setup_share_pct": result.Mean("%", "ops"),
	}
	maps.Copy(d, extworker.FigureDeclarations())
	return d
}

func warnings(run result.Run, wl *Workload, c Combo, cfg load.Config) []string {
	var out []string
	if err := wl.ServerError(); err != nil {
		out = append(out, strings.Join(strings.Fields(strings.ReplaceAll(redact.String(err.Error()), "\n", "; ")), " "))
	}
	if cfg.Open() && run.DurationS > 0 && !run.Interrupted {
		achieved := float64(run.Ops+run.Errors) / run.DurationS
		if achieved < 0.99*cfg.Rate {
			out = append(out, fmt.Sprintf("achieved %.1f queries/s of the %g/s requested (%.1f%% short): the server or the %d queries allowed in flight could not keep up",
				achieved, cfg.Rate, 100*(1-achieved/cfg.Rate), cfg.MaxInFlight))
		}
	}
	if ign := c.Client.Ignores(c.Opts.Pool); len(ign) > 0 {
		out = append(out, fmt.Sprintf("%s cannot honour the pool's %s: those settings had no effect", c.Name, strings.Join(ign, ", ")))
	}
	return out
}

// supporting names the known client paths that can talk to server.
func (c Config) supporting(server ch.Version) []string {
	var out []string
	for _, k := range c.Known {
		if ch.CheckServer(k.Name, server, k.Client.MinServer) == nil {
			out = append(out, k.Name)
		}
	}
	return out
}
