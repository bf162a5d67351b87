package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/result"
)

// chiFlags are ch insert's own flags.
type chiFlags struct {
	dsn          string
	clients      string
	batch        int
	rows         int64
	table        string
	extraColumns int
	create       bool
	blocksPerIns int
	noDelay      bool
	dumpFormat   string
}

// chiAdminTimeout bounds dbmeter's own statements (counts, DDL), which must
// run even after an interrupt so the rows are accounted for.
const chiAdminTimeout = time.Minute

func newCHInsertCmd(env Env) *cobra.Command {
	var rf runFlags
	var f chiFlags
	cmd := &cobra.Command{
		Use:   "insert",
		Short: "Compare Go clients' bulk inserts into ClickHouse (rows/s, MB/s, build vs send, CPU and allocations per row)",
		Long: `insert drives blocks of generated event rows (seed 000's 32-column table,
about 1.4 KB a row, deterministic for --seed) through each client path's
bulk-insert API: one operation is one block of --batch rows, built by the
client (timed as "build") and sent (timed as "send"). After each run the
rows in the table are counted and compared with the rows the server
acknowledged; any difference is an error.

Clients (--clients, comma-separated; "auto": all the server supports):
  clickhouse-go-row        v2 PrepareBatch + Append per row
  clickhouse-go-column     v2 PrepareBatch + Column(i).Append per column
  ch-go                    ch-go proto.Input blocks
  database-sql             v2 through database/sql: tx, prepared INSERT, Exec per row
  sqlx                     the same through sqlx
  gorm                     gorm Create(&rows) on gorm.io/driver/clickhouse
  clickhouse-go-v1         v1 through database/sql (servers older than v2 supports)
  sqlx-v1                  sqlx on v1, as the seed ran sqlx
  clickhouse-go-v1-column  v1's direct block API (OpenDirect, WriteBlock)
A client newer than the server is refused with one line naming both versions.`,
		Example: `  dbmeter ch insert --dsn "$DSN" --create --clients clickhouse-go-v1 --rows 500000
  dbmeter ch insert --dsn "$DSN" --clients ch-go,clickhouse-go-column --workers 4 --duration 30s
  dbmeter ch insert --dsn "$DSN" --clients ch-go --batch 10000 --blocks-per-insert 10 --tcp-nodelay=false`,
		Args: noArgs,
	}
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error { return runCHInsert(cmd, env, &rf, &f) })
	def := load.DefaultConfig()
	// A batch is a long operation and the connection is made before the
	// run, so no warm-up by default; with --rows every row counts.
	def.Warmup = 0
	rf.bind(cmd.Flags(), def)
	fs := cmd.Flags()
	fs.StringVar(&f.dsn, "dsn", "", "ClickHouse native address: clickhouse://user:password@host:port/db or tcp://host:port?username=…&password=…&database=…")
	fs.StringVar(&f.clients, "clients", "auto", "client paths, comma-separated, or auto: every path the server's version supports")
	fs.IntVar(&f.batch, "batch", 100_000, "rows per block (one operation)")
	fs.Int64Var(&f.rows, "rows", 0, "insert this many rows per client and repetition instead of running for --duration")
	fs.StringVar(&f.table, "table", insert.DefaultDatabase+".event", "target table, db.name")
	fs.IntVar(&f.extraColumns, "extra-columns", 0, "with --create: pad the table with this many defaulted columns (the seed's table had 657 more)")
	fs.BoolVar(&f.create, "create", false, "create the table (a table dbmeter created before is dropped and re-made; any other is refused)")
	fs.IntVar(&f.blocksPerIns, "blocks-per-insert", 1, "stream this many blocks through one INSERT where the client can")
	fs.BoolVar(&f.noDelay, "tcp-nodelay", true, "set TCP_NODELAY on the clients' connections (false: Nagle's algorithm on)")
	fs.StringVar(&f.dumpFormat, "dump-format", "", "write the generated rows to stdout in this format (Native or TSV) and exit: for scripts/ch-insert-ceiling.sh")
	fs.MarkHidden("dump-format")
	return cmd
}

func runCHInsert(cmd *cobra.Command, env Env, rf *runFlags, f *chiFlags) error {
	ctx := cmd.Context()
	fs := cmd.Flags()
	if f.batch < 1 {
		return usagef("--batch must be at least 1, got %d", f.batch)
	}
	if fs.Changed("rows") && f.rows < 1 {
		return usagef("--rows must be at least 1, got %d", f.rows)
	}
	if f.blocksPerIns < 1 {
		return usagef("--blocks-per-insert must be at least 1, got %d", f.blocksPerIns)
	}
	if f.extraColumns < 0 || f.extraColumns > 10_000 {
		return usagef("--extra-columns must be 0 to 10000, got %d", f.extraColumns)
	}
	if fs.Changed("extra-columns") && !f.create {
		return usagef("--extra-columns shapes the table --create makes: add --create")
	}
	if f.dumpFormat != "" {
		return chiDump(env, rf, f)
	}
	cfg, err := chiConfig(fs, rf, f)
	if err != nil {
		return err
	}
	table, err := insert.ParseTable(f.table)
	if err != nil {
		return usageError{err}
	}
	if f.dsn == "" {
		return usagef("--dsn is required: the ClickHouse server's native address")
	}
	dsn, err := ch.ParseDSN(f.dsn)
	if err != nil {
		return usageError{err}
	}
	names, err := chiClientNames(f.clients)
	if err != nil {
		return err
	}
	secrets := append(redact.Values(f.dsn), dsn.Password)

	version, err := serverVersion(cmd, dsn)
	if err != nil {
		return scrubbed(err, secrets)
	}
	clients, refused := chiGate(env, names, version)
	if len(clients) == 0 {
		return chiRefusedError(refused, version)
	}
	admin, err := insert.OpenAdmin(ctx, dsn)
	if err != nil {
		return scrubbed(err, secrets)
	}
	defer admin.Close()
	if err := admin.Prepare(ctx, table, f.create, f.extraColumns); err != nil {
		return scrubbed(err, secrets)
	}

	s, err := newSession(env, "ch", rf.output, "", secrets...)
	if err != nil {
		return err
	}
	params := flagParams(fs, "dump-format")
	params["table"] = table.Plain()
	rings := map[uint64]chiRing{}
	var failed []string
	for _, name := range clients {
		for rep := 1; rep <= rf.repeat && ctx.Err() == nil; rep++ {
			cfg.Seed = repeatSeed(rf.cfg.Seed, rep)
			ring, ok := rings[cfg.Seed]
			if !ok {
				ring = chiGenerate(cfg.Seed, f.batch, f.rows)
				rings[cfg.Seed] = ring
			}
			run, err := chiRun(ctx, s, rf, f, cfg, name, version, admin, table, ring, params, rep)
			if err != nil {
				fmt.Fprintln(env.Stderr, "dbmeter: "+oneLine(scrubbed(fmt.Errorf("%s: %w", name, err), secrets)))
				failed = append(failed, name)
				break
			}
			s.add(run)
		}
	}
	if len(s.doc.Runs) == 0 {
		s.abort()
		return fmt.Errorf("no client ran (%s)", strings.Join(append(failed, refused...), ", "))
	}
	err = s.finish(ctx)
	var problems []string
	if err != nil {
		problems = append(problems, err.Error())
	}
	if len(refused) > 0 {
		problems = append(problems, chiRefusedError(refused, version).Error())
	}
	if len(failed) > 0 {
		problems = append(problems, "could not run "+strings.Join(failed, ", ")+" (see above)")
	}
	if len(problems) > 0 {
		return runError{errors.New(strings.Join(problems, "; "))}
	}
	return nil
}

// chiConfig turns the run flags and --rows into the load configuration: one
// operation per block, so --rows becomes a count of blocks.
func chiConfig(fs *pflag.FlagSet, rf *runFlags, f *chiFlags) (load.Config, error) {
	if f.rows > 0 {
		switch {
		case fs.Changed("duration"):
			return load.Config{}, usagef("--rows and --duration contradict each other: give one")
		case fs.Changed("count"):
			return load.Config{}, usagef("--rows and --count contradict each other: give one (--count counts blocks)")
		case rf.cfg.Warmup > 0:
			return load.Config{}, usagef("--warmup needs --duration: with --rows every row inserted counts")
		}
	}
	cfg, err := rf.config()
	if err != nil {
		return cfg, err
	}
	if f.rows > 0 {
		blocks := (f.rows + int64(f.batch) - 1) / int64(f.batch)
		if !cfg.Open() && blocks < int64(cfg.Workers) {
			return cfg, usagef("--rows %d makes %d blocks of --batch %d, fewer than --workers %d: lower --batch or --workers", f.rows, blocks, f.batch, cfg.Workers)
		}
		cfg.Duration, cfg.Count = 0, blocks
	}
	return cfg, nil
}

// chiClientNames expands --clients; "auto" is every registered client, to
// be filtered by the server's version.
func chiClientNames(list string) ([]string, error) {
	if list == "auto" || list == "" {
		return nil, nil
	}
	var names []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" || slices.Contains(names, n) {
			continue
		}
		if _, err := insert.Lookup(n); err != nil {
			return nil, usageError{err}
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, usagef("--clients is empty: name at least one of %s", strings.Join(insert.Names(), ", "))
	}
	return names, nil
}

// chiGate keeps the clients that support the server. Listed clients that do
// not are refused, each with its line on stderr; with auto they are left
// out silently.
func chiGate(env Env, names []string, server ch.Version) (ok, refused []string) {
	auto := names == nil
	if auto {
		names = insert.Names()
	}
	for _, n := range names {
		c, _ := insert.Lookup(n)
		if err := ch.CheckServer(n, server, c.MinServer); err != nil {
			if !auto {
				fmt.Fprintln(env.Stderr, "dbmeter: "+err.Error())
				refused = append(refused, n)
			}
			continue
		}
		ok = append(ok, n)
	}
	return ok, refused
}

func chiRefusedError(refused []string, server ch.Version) error {
	if len(refused) == 0 {
		return fmt.Errorf("no client supports ClickHouse %s", server)
	}
	return fmt.Errorf("refused %s: too new for ClickHouse %s (see above)", strings.Join(refused, ", "), server)
}

// chiRing is the generated rows of one seed and what making them cost.
type chiRing struct {
	blocks     []*ch.Block
	rowsPerSec float64
}

func chiGenerate(seed uint64, batch int, rows int64) chiRing {
	n := event.RingSize(batch, rows)
	start := time.Now()
	blocks := event.Ring(seed, batch, n)
	secs := time.Since(start).Seconds()
	r := chiRing{blocks: blocks}
	if secs > 0 {
		r.rowsPerSec = float64(n*batch) / secs
	}
	return r
}

// chiRun measures one client, one repetition, and reconciles the rows.
func chiRun(ctx context.Context, s *session, rf *runFlags, f *chiFlags, cfg load.Config, name string, version ch.Version,
	admin *insert.Admin, table insert.Table, ring chiRing, flags map[string]string, rep int) (result.Run, error) {
	c, _ := insert.Lookup(name)
	opts := insert.Options{Batch: f.batch, BlocksPerInsert: f.blocksPerIns, NoDelay: f.noDelay}
	opts.DSN, _ = ch.ParseDSN(f.dsn)
	var warnings []string
	if f.blocksPerIns > 1 && !c.Streams {
		opts.BlocksPerInsert = 1
		warnings = append(warnings, fmt.Sprintf("--blocks-per-insert %d not honoured: %s cannot stream several blocks through one INSERT, so each block was an INSERT of its own", f.blocksPerIns, name))
	}
	if !f.noDelay && !c.NoDelay {
		warnings = append(warnings, fmt.Sprintf("--tcp-nodelay=false not honoured: %s has no way to set it", name))
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), chiAdminTimeout)
	defer cancel()
	before, err := admin.Count(actx, table)
	if err != nil {
		return result.Run{}, err
	}
	wl := insert.NewWorkload(c, opts, table, ring.blocks, f.rows)
	cfg.Phases = insert.Phases
	res, err := load.Run(ctx, cfg, insert.Ops, wl.NewWorker, s.watcher(rf, "ch/"+name))
	if err != nil {
		return result.Run{}, err
	}
	after, err := admin.Count(actx, table)
	if err != nil {
		return result.Run{}, err
	}
	params := maps.Clone(flags)
	params["clients"] = name
	// --rows became a count of blocks: record what the run did.
	params["count"], params["duration"] = strconv.FormatInt(cfg.Count, 10), cfg.Duration.String()
	params["blocks-per-insert"] = strconv.Itoa(opts.BlocksPerInsert)
	params["module"] = c.Module
	run := res.Fill(result.Run{Family: "ch", Target: name, Workload: insert.Op, Params: params, Server: version.String(), Repeat: rep}, cfg, 0)
	build, send := float64(run.Phases["build"].TotalNs)/1e9, float64(run.Phases["send"].TotalNs)/1e9
	acked, counted, uncertain := wl.Acked(), after-before, wl.Uncertain()
	run.Extra = map[string]float64{
		"rows_acknowledged": float64(acked),
		"rows_counted":      float64(counted),
		"rows_uncertain":    float64(uncertain),
		"build_s":           build,
		"send_s":            send,
		"generator_rows_s":  ring.rowsPerSec,
	}
	if run.Rows > 0 {
		run.Extra["client_cpu_us_per_row"] = run.Client.CPUS * 1e6 / float64(run.Rows)
		run.Extra["allocs_per_row"] = float64(run.Client.Allocs) / float64(run.Rows)
		run.Extra["bytes_per_row"] = float64(run.Bytes) / float64(run.Rows)
	}
	run.Warnings = append(run.Warnings, warnings...)
	// Every acknowledged row must be there; of the uncertain ones (INSERTs
	// that failed after sending), any number may be.
	switch {
	case counted < acked:
		run.Errors++
		run.ErrorKinds["lost_rows"]++
		run.Warnings = append(run.Warnings, fmt.Sprintf("row count mismatch: the server acknowledged %d rows but %s gained %d (%d missing)",
			acked, table.Plain(), counted, acked-counted))
	case counted > acked+uncertain:
		run.Errors++
		run.ErrorKinds["extra_rows"]++
		run.Warnings = append(run.Warnings, fmt.Sprintf("row count mismatch: the server acknowledged %d rows (%d more uncertain) but %s gained %d; another writer to the table would cause this",
			acked, uncertain, table.Plain(), counted))
	case uncertain > 0:
		run.Warnings = append(run.Warnings, fmt.Sprintf("%d rows were in INSERTs that failed after sending them; %d of them landed (acknowledged rows all reconcile)",
			uncertain, counted-acked))
	}
	return run, nil
}

// chiDump writes the generated rows for the ceiling script.
func chiDump(env Env, rf *runFlags, f *chiFlags) error {
	if f.rows < 1 {
		return usagef("--dump-format needs --rows")
	}
	seed := rf.cfg.Seed
	ring := event.Ring(seed, f.batch, event.RingSize(f.batch, f.rows))
	if err := insert.Dump(env.Stdout, f.dumpFormat, ring, f.batch, f.rows); err != nil {
		if strings.HasPrefix(err.Error(), "dump format") {
			return usageError{err}
		}
		return err
	}
	return nil
}
