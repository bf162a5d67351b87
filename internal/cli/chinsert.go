package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/redact"
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
	switch {
	case f.batch < 1:
		return usagef("--batch must be at least 1, got %d", f.batch)
	case fs.Changed("rows") && f.rows < 1:
		return usagef("--rows must be at least 1, got %d", f.rows)
	case f.blocksPerIns < 1:
		return usagef("--blocks-per-insert must be at least 1, got %d", f.blocksPerIns)
	case f.extraColumns < 0 || f.extraColumns > insert.MaxExtraColumns:
		return usagef("--extra-columns must be 0 to %d, got %d", insert.MaxExtraColumns, f.extraColumns)
	case fs.Changed("extra-columns") && !f.create:
		return usagef("--extra-columns shapes the table --create makes: add --create")
	case f.dumpFormat != "":
		return chiDump(env, rf, f)
	}
	c, err := chiConfig(fs, rf, f)
	if err != nil {
		return err
	}
	secrets := append(redact.Values(f.dsn), c.DSN.Password)
	version, err := serverVersion(cmd, c.DSN)
	if err != nil {
		return scrubbed(err, secrets)
	}
	p, err := insert.Prepare(ctx, "ch", c, version)
	var gate *insert.GateError
	if errors.As(err, &gate) {
		chiSay(env, gate.Refused, secrets)
	}
	if err != nil {
		return scrubbed(err, secrets)
	}
	defer p.Close()
	chiSay(env, p.Refused, secrets)
	s, err := newSession(env, rf.output, "", secrets...)
	if err != nil {
		return err
	}
	perr := plan.Execute(ctx, p.Plan, planSink{s, rf})
	chiSay(env, planErrors(perr), secrets)
	if len(s.doc.Runs) == 0 {
		s.abort()
		return fmt.Errorf("no client ran: %s", oneLine(scrubbed(perr, secrets)))
	}
	var problems []string
	if err := s.finish(ctx); err != nil {
		problems = append(problems, err.Error())
	}
	if len(p.Refused) > 0 {
		problems = append(problems, insert.RefusedLine(p.Refused, version))
	}
	if perr != nil {
		problems = append(problems, fmt.Sprintf("%d client runs failed or left their rows unverified (see above)", len(planErrors(perr))))
	}
	if len(problems) > 0 {
		return runError{errors.New(strings.Join(problems, "; "))}
	}
	return nil
}

// chiSay prints each error on a line of its own.
func chiSay(env Env, errs []error, secrets []string) {
	for _, err := range errs {
		fmt.Fprintln(env.Stderr, "dbmeter: "+oneLine(scrubbed(err, secrets)))
	}
}

// chiConfig binds the flags to the family's configuration; --rows replaces
// --duration, so the flags that contradict it are refused by name.
func chiConfig(fs *pflag.FlagSet, rf *runFlags, f *chiFlags) (insert.Config, error) {
	if f.rows > 0 {
		switch {
		case fs.Changed("duration"):
			return insert.Config{}, usagef("--rows and --duration contradict each other: give one")
		case fs.Changed("count"):
			return insert.Config{}, usagef("--rows and --count contradict each other: give one (--count counts blocks)")
		case rf.cfg.Warmup > 0:
			return insert.Config{}, usagef("--warmup needs --duration: with --rows every row inserted counts")
		}
	}
	cfg, err := rf.config()
	if err != nil {
		return insert.Config{}, err
	}
	table, err := insert.ParseTable(f.table)
	if err != nil {
		return insert.Config{}, usageError{err}
	}
	if f.dsn == "" {
		return insert.Config{}, usagef("--dsn is required: the ClickHouse server's native address")
	}
	dsn, err := ch.ParseDSN(f.dsn)
	if err != nil {
		return insert.Config{}, usageError{err}
	}
	var names []string
	if f.clients != "auto" {
		for _, n := range trimAll(strings.Split(f.clients, ",")) {
			if n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return insert.Config{}, usagef("--clients is empty: name at least one of %s", strings.Join(insert.Names(), ", "))
		}
	}
	c := insert.Config{
		DSN: dsn, Clients: names, Table: table, Create: f.create, ExtraColumns: f.extraColumns,
		Batch: f.batch, Rows: f.rows, BlocksPerInsert: f.blocksPerIns, NoDelay: f.noDelay,
		Load: cfg, Repeat: rf.repeat, Params: flagParams(fs, "dump-format"),
	}
	if err := c.Validate(); err != nil {
		if lc, _ := c.LoadConfig(); f.rows > 0 && lc.Count < int64(cfg.Workers) {
			return c, usagef("--rows %d makes %d blocks of --batch %d, fewer than --workers %d: lower --batch or --workers", f.rows, lc.Count, f.batch, cfg.Workers)
		}
		return c, usageError{err}
	}
	return c, nil
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
