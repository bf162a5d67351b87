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
	"github.com/dbmeter/dbmeter/internal/usage"
)

// chiFlags are ch insert's own flags.
type chiFlags struct {
	dsn, clients, table, dumpFormat string
	c                               insert.Config // the flags bound to it directly
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
	fs.IntVar(&f.c.Batch, "batch", 100_000, "rows per block (one operation)")
	fs.Int64Var(&f.c.Rows, "rows", 0, "insert this many rows per client and repetition instead of running for --duration")
	fs.StringVar(&f.table, "table", insert.DefaultDatabase+".event", "target table, db.name")
	fs.IntVar(&f.c.ExtraColumns, "extra-columns", 0, "with --create: pad the table with this many defaulted columns (the seed's table had 657 more)")
	fs.BoolVar(&f.c.Create, "create", false, "create the table (a table dbmeter created before is dropped and re-made; any other is refused)")
	fs.IntVar(&f.c.BlocksPerInsert, "blocks-per-insert", 1, "stream this many blocks through one INSERT where the client can")
	fs.BoolVar(&f.c.NoDelay, "tcp-nodelay", true, "set TCP_NODELAY on the clients' connections (false: Nagle's algorithm on)")
	fs.StringVar(&f.dumpFormat, "dump-format", "", "write the generated rows to stdout in this format (Native or TSV) and exit: for scripts/ch-insert-ceiling.sh")
	fs.MarkHidden("dump-format")
	return cmd
}

func runCHInsert(cmd *cobra.Command, env Env, rf *runFlags, f *chiFlags) error {
	ctx := cmd.Context()
	fs := cmd.Flags()
	switch c := &f.c; {
	case c.Batch < 1:
		return usagef("--batch must be at least 1, got %d", c.Batch)
	case fs.Changed("rows") && c.Rows < 1:
		return usagef("--rows must be at least 1, got %d", c.Rows)
	case c.BlocksPerInsert < 1:
		return usagef("--blocks-per-insert must be at least 1, got %d", c.BlocksPerInsert)
	case c.ExtraColumns < 0 || c.ExtraColumns > insert.MaxExtraColumns:
		return usagef("--extra-columns must be 0 to %d, got %d", insert.MaxExtraColumns, c.ExtraColumns)
	case fs.Changed("extra-columns") && !c.Create:
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
	s, err := newSession(env, "ch", rf.output, "", secrets...)
	if err != nil {
		return err
	}
	s.showProgress(rf)
	perr := plan.Execute(ctx, p.Plan, s)
	chiSay(env, plan.Errors(perr), secrets)
	if len(s.Doc().Runs) == 0 {
		s.Abort()
		if perr == nil { // interrupted before the first run ended
			return errors.New("interrupted: no client ran")
		}
		return fmt.Errorf("no client ran: %s", oneLine(scrubbed(perr, secrets)))
	}
	var problems []string
	if err := s.Finish(ctx); err != nil {
		problems = append(problems, err.Error())
	}
	if len(p.Refused) > 0 {
		problems = append(problems, insert.RefusedLine(p.Refused, version))
	}
	if perr != nil {
		problems = append(problems, fmt.Sprintf("%d client runs failed or left their rows unverified (see above)", len(plan.Errors(perr))))
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
	c := f.c
	if c.Rows > 0 {
		switch {
		case fs.Changed("duration"):
			return c, usagef("--rows and --duration contradict each other: give one")
		case fs.Changed("count"):
			return c, usagef("--rows and --count contradict each other: give one (--count counts blocks)")
		case rf.cfg.Warmup > 0:
			return c, usagef("--warmup needs --duration: with --rows every row inserted counts")
		}
	}
	var err error
	if c.Load, err = rf.config(); err != nil {
		return c, err
	}
	c.Repeat, c.Params = rf.repeat, flagParams(fs, "dump-format")
	if c.Table, err = insert.ParseTable(f.table); err != nil {
		return c, usage.Wrap(err)
	}
	c = c.ForShard()
	if f.dsn == "" {
		return c, usagef("--dsn is required: the ClickHouse server's native address")
	}
	if c.DSN, err = ch.ParseDSN(f.dsn); err != nil {
		return c, usage.Wrap(err)
	}
	if f.clients != "auto" {
		for _, n := range trimAll(strings.Split(f.clients, ",")) {
			if n != "" && !slices.Contains(c.Clients, n) {
				c.Clients = append(c.Clients, n)
			}
		}
		if len(c.Clients) == 0 {
			return c, usagef("--clients is empty: name at least one of %s", strings.Join(insert.Names(), ", "))
		}
	}
	if err := c.Validate(); err != nil {
		if lc, _ := c.LoadConfig(); c.Rows > 0 && lc.Count < int64(c.Load.Workers) {
			return c, usagef("--rows %d makes %d blocks of --batch %d, fewer than --workers %d: lower --batch or --workers", c.Rows, lc.Count, c.Batch, c.Load.Workers)
		}
		return c, usage.Wrap(err)
	}
	return c, nil
}

// chiDump writes the generated rows for the ceiling script.
func chiDump(env Env, rf *runFlags, f *chiFlags) error {
	c := f.c
	if c.Rows < 1 {
		return usagef("--dump-format needs --rows")
	}
	ring := event.Ring(rf.cfg.Seed, c.Batch, event.RingSize(c.Batch, c.Rows))
	if err := insert.Dump(env.Stdout, f.dumpFormat, ring, c.Batch, c.Rows); err != nil {
		if strings.HasPrefix(err.Error(), "dump format") {
			return usage.Wrap(err)
		}
		return err
	}
	return nil
}
