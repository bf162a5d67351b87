package initdb

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dbmeter/dbmeter/internal/pg/server"
)

// pgbench's shape of the data: rows per unit of scale.
const (
	BranchesPerScale = 1
	TellersPerScale  = 10
	AccountsPerScale = 100000
	// bigintScale is the scale from which account ids need bigint.
	bigintScale = 20000
)

// Config is pgbench -i.
type Config struct {
	Scale      int64
	Fillfactor int // 10..100
	// Steps are pgbench's --init-steps: d drop, t create tables, g generate
	// with COPY, G generate on the server, v vacuum, p primary keys, f
	// foreign keys.
	Steps string
	// Force lets dbmeter drop or reload pgbench tables it did not create.
	Force bool
	// Log receives pgbench-like progress lines; nil discards them.
	Log io.Writer
	// Quiet is -q: a progress line every 5 seconds instead of every
	// 100000 rows.
	Quiet bool
	// Partitions splits pgbench_accounts into this many partitions by
	// PartitionMethod ("range", the default, or "hash"); 0: none.
	Partitions      int
	PartitionMethod string
	// Unlogged creates the tables UNLOGGED.
	Unlogged bool
	// Tablespace and IndexTablespace place the tables and the primary keys.
	Tablespace, IndexTablespace string
}

// DefaultConfig returns pgbench -i's defaults.
func DefaultConfig() Config {
	return Config{Scale: 1, Fillfactor: 100, Steps: "dtgvp"}
}

// Validate reports the first setting that cannot work.
func (c Config) Validate() error {
	switch {
	case c.Scale < 1:
		return fmt.Errorf("scale must be at least 1, got %d", c.Scale)
	case c.Fillfactor < 10 || c.Fillfactor > 100:
		return fmt.Errorf("fillfactor must be between 10 and 100, got %d", c.Fillfactor)
	case strings.TrimSpace(c.Steps) == "":
		return fmt.Errorf("no initialization steps given")
	case c.Partitions < 0:
		return fmt.Errorf("invalid number of partitions: %d", c.Partitions)
	case c.PartitionMethod != "" && c.PartitionMethod != "range" && c.PartitionMethod != "hash":
		return fmt.Errorf("invalid partition method, expecting \"range\" or \"hash\", got: %q", c.PartitionMethod)
	case c.PartitionMethod != "" && c.Partitions == 0:
		return fmt.Errorf("{PartitionMethod} requires greater than zero {Partitions}")
	}
	for _, s := range c.Steps {
		if !strings.ContainsRune("dtgGvpf ", s) {
			return fmt.Errorf("unrecognized initialization step %q (allowed: d drop, t create tables, g generate, G server-side generate, v vacuum, p primary keys, f foreign keys)", string(s))
		}
	}
	return nil
}

type initStep struct {
	name string
	run  func(ctx context.Context, conn *pgx.Conn, c Config) error
}

func initSteps() map[rune]initStep {
	return map[rune]initStep{
		'd': {"drop tables", dropTables},
		't': {"create tables", createTables},
		'g': {"client-side generate", generateClient},
		'G': {"server-side generate", generateServer},
		'v': {"vacuum", vacuumTables},
		'p': {"primary keys", primaryKeys},
		'f': {"foreign keys", foreignKeys},
	}
}

// Init creates and loads the pgbench tables as pgbench -i does. Before
// anything is dropped or emptied it checks that every existing pgbench table
// was created by dbmeter, and refuses otherwise (unless Force), naming the
// table.
func Init(ctx context.Context, conn *pgx.Conn, c Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	log := c.Log
	if log == nil {
		log = io.Discard
	}
	if strings.ContainsAny(c.Steps, "dgG") && !c.Force {
		st, err := server.ReadTables(ctx, conn)
		if err != nil {
			return err
		}
		if f := st.Foreign(); len(f) > 0 {
			return fmt.Errorf("table %s exists and was not created by dbmeter, so dbmeter will not drop or reload it: benchmark it as it is (leave out {Initialize}), or give {Force} to re-initialise it", f[0])
		}
	}
	steps := initSteps()
	var times []string
	start := time.Now()
	for _, r := range c.Steps {
		if r == ' ' {
			continue
		}
		s := steps[r]
		t := time.Now()
		if err := s.run(ctx, conn, c); err != nil {
			return err
		}
		times = append(times, fmt.Sprintf("%s %.2f s", s.name, time.Since(t).Seconds()))
	}
	fmt.Fprintf(log, "done in %.2f s (%s).\n", time.Since(start).Seconds(), strings.Join(times, ", "))
	return nil
}

// Servers runs Init on each server in turn, saying which on log.
func Servers(ctx context.Context, dsns []string, c Config, log io.Writer) error {
	for _, dsn := range dsns {
		where, db, _ := server.Endpoint(dsn)
		conn, err := server.Connect(ctx, dsn)
		if err != nil {
			return err
		}
		fmt.Fprintf(log, "dbmeter pg: initialising %s/%s at scale %d\n", where, db, c.Scale)
		err = Init(ctx, conn, c)
		conn.Close(context.Background())
		if err != nil {
			return fmt.Errorf("initialise %s/%s: %w", where, db, err)
		}
	}
	return nil
}

func execAll(ctx context.Context, conn *pgx.Conn, what string, sqls ...string) error {
	for _, q := range sqls {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %s: %w", what, q, err)
		}
	}
	return nil
}

func logf(c Config, format string, a ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format, a...)
	}
}

func dropTables(ctx context.Context, conn *pgx.Conn, c Config) error {
	logf(c, "dropping old tables...\n")
	return execAll(ctx, conn, "drop tables", "drop table if exists "+strings.Join(server.Tables(), ", "))
}

// tableDDL is pgbench's DDL, column for column.
func tableDDL(scale int64) [][3]string { // name, columns, "1" when it takes a fillfactor
	aid := "int"
	if scale >= bigintScale {
		aid = "bigint"
	}
	return [][3]string{
		{"pgbench_history", "tid int,bid int,aid " + aid + ",delta int,mtime timestamp,filler char(22)", ""},
		{"pgbench_tellers", "tid int not null,bid int,tbalance int,filler char(84)", "1"},
		{"pgbench_accounts", "aid " + aid + " not null,bid int,abalance int,filler char(84)", "1"},
		{"pgbench_branches", "bid int not null,bbalance int,filler char(88)", "1"},
	}
}

func (c Config) method() string {
	if c.Partitions > 0 && c.PartitionMethod == "" {
		return "range"
	}
	return c.PartitionMethod
}

func createTables(ctx context.Context, conn *pgx.Conn, c Config) error {
	logf(c, "creating tables...\n")
	unlogged := ""
	if c.Unlogged {
		unlogged = " unlogged"
	}
	for _, t := range tableDDL(c.Scale) {
		parted := c.Partitions > 0 && t[0] == "pgbench_accounts"
		q := fmt.Sprintf("create%s table %s(%s)", unlogged, t[0], t[1])
		if parted {
			// A partitioned table takes no fillfactor; its partitions do.
			q = fmt.Sprintf("create%s table %s(%s) partition by %s (aid)", unlogged, t[0], t[1], c.method())
		} else if t[2] != "" {
			q += fmt.Sprintf(" with (fillfactor=%d)", c.Fillfactor)
		}
		if c.Tablespace != "" {
			q += " tablespace " + pgx.Identifier{c.Tablespace}.Sanitize()
		}
		if err := execAll(ctx, conn, "create tables", q, fmt.Sprintf("comment on table %s is '%s'", t[0], server.OwnerMark)); err != nil {
			return err
		}
	}
	if c.Partitions > 0 {
		return createPartitions(ctx, conn, c, unlogged)
	}
	return nil
}

// createPartitions makes pgbench's partitions of pgbench_accounts: equal
// ranges open at both ends, or hash moduli.
func createPartitions(ctx context.Context, conn *pgx.Conn, c Config, unlogged string) error {
	n := int64(c.Partitions)
	size := (AccountsPerScale*c.Scale + n - 1) / n
	for p := int64(1); p <= n; p++ {
		q := fmt.Sprintf("create%s table pgbench_accounts_%d partition of pgbench_accounts ", unlogged, p)
		if c.method() == "hash" {
			q += fmt.Sprintf("for values with (modulus %d, remainder %d)", n, p-1)
		} else {
			from, to := "minvalue", "maxvalue"
			if p > 1 {
				from = strconv.FormatInt((p-1)*size+1, 10)
			}
			if p < n {
				to = strconv.FormatInt(p*size+1, 10)
			}
			q += fmt.Sprintf("for values from (%s) to (%s)", from, to)
		}
		q += fmt.Sprintf(" with (fillfactor=%d)", c.Fillfactor)
		if c.Tablespace != "" {
			q += " tablespace " + pgx.Identifier{c.Tablespace}.Sanitize()
		}
		if err := execAll(ctx, conn, "create partitions", q, fmt.Sprintf("comment on table pgbench_accounts_%d is '%s'", p, server.OwnerMark)); err != nil {
			return err
		}
	}
	return nil
}

// generateClient loads the tables with COPY in one transaction, as pgbench
// does (the accounts with FREEZE, which the same-transaction truncate
// allows).
func generateClient(ctx context.Context, conn *pgx.Conn, c Config) error {
	logf(c, "generating data (client-side)...\n")
	tx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "truncate table "+strings.Join(server.Tables(), ", ")); err != nil {
		return fmt.Errorf("generate: truncate: %w", err)
	}
	branches, tellers := c.Scale*BranchesPerScale, c.Scale*TellersPerScale
	loads := []struct {
		sql  string
		rows int64
		row  func(b []byte, i int64) []byte
	}{
		{"copy pgbench_branches(bid,bbalance) from stdin", branches, func(b []byte, i int64) []byte {
			return append(strconv.AppendInt(b, i, 10), "\t0\n"...)
		}},
		{"copy pgbench_tellers(tid,bid,tbalance) from stdin", tellers, func(b []byte, i int64) []byte {
			b = append(strconv.AppendInt(b, i, 10), '\t')
			return append(strconv.AppendInt(b, (i-1)/TellersPerScale+1, 10), "\t0\n"...)
		}},
		{accountsCopy(c), c.Scale * AccountsPerScale, func(b []byte, i int64) []byte {
			b = append(strconv.AppendInt(b, i, 10), '\t')
			return append(strconv.AppendInt(b, (i-1)/AccountsPerScale+1, 10), "\t0\t\n"...)
		}},
	}
	for _, l := range loads {
		r := &rowReader{rows: l.rows, row: l.row, start: time.Now(), log: c.Log, report: strings.Contains(l.sql, "accounts"), quiet: c.Quiet}
		if _, err := tx.Conn().PgConn().CopyFrom(ctx, r, l.sql); err != nil {
			return fmt.Errorf("generate: %s: %w", l.sql, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("generate: commit: %w", err)
	}
	return nil
}

// accountsCopy loads the accounts with FREEZE, which a partitioned table
// does not allow.
func accountsCopy(c Config) string {
	if c.Partitions > 0 {
		return "copy pgbench_accounts from stdin"
	}
	return "copy pgbench_accounts from stdin with (freeze on)"
}

// rowReader produces COPY text rows 1..rows on demand, so a large scale
// never sits in memory.
type rowReader struct {
	rows, next int64
	row        func(b []byte, i int64) []byte
	buf        []byte
	start      time.Time
	log        io.Writer
	report     bool
	quiet      bool      // -q: a line every 5 s
	lastLog    time.Time // -q
}

func (r *rowReader) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) && r.next < r.rows {
		r.next++
		r.buf = r.row(r.buf, r.next)
		if r.report && r.log != nil && r.due() {
			el := time.Since(r.start).Seconds()
			fmt.Fprintf(r.log, "%d of %d tuples (%d%%) done (elapsed %.2f s, remaining %.2f s)\n",
				r.next, r.rows, r.next*100/r.rows, el, el*float64(r.rows-r.next)/float64(r.next))
		}
	}
	if len(r.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.buf)
	r.buf = r.buf[:copy(r.buf, r.buf[n:])]
	return n, nil
}

// due says whether to print a progress line after row r.next: every
// 100000 rows as pgbench, or with -q every 5 seconds and at the end.
func (r *rowReader) due() bool {
	if !r.quiet {
		return r.next%100000 == 0 || r.next == r.rows
	}
	if r.next%1000 != 0 && r.next != r.rows {
		return false
	}
	if now := time.Now(); now.Sub(r.lastLog) >= 5*time.Second || r.next == r.rows {
		r.lastLog = now
		return r.next == r.rows || now.Sub(r.start) >= 5*time.Second
	}
	return false
}

func generateServer(ctx context.Context, conn *pgx.Conn, c Config) error {
	logf(c, "generating data (server-side)...\n")
	return execAll(ctx, conn, "generate",
		"begin",
		"truncate table "+strings.Join(server.Tables(), ", "),
		fmt.Sprintf("insert into pgbench_branches(bid,bbalance) select bid, 0 from generate_series(1, %d) as bid", c.Scale*BranchesPerScale),
		fmt.Sprintf("insert into pgbench_tellers(tid,bid,tbalance) select tid, (tid - 1) / %d + 1, 0 from generate_series(1, %d) as tid", TellersPerScale, c.Scale*TellersPerScale),
		fmt.Sprintf("insert into pgbench_accounts(aid,bid,abalance,filler) select aid, (aid - 1) / %d + 1, 0, '' from generate_series(1, %d) as aid", AccountsPerScale, c.Scale*AccountsPerScale),
		"commit")
}

func vacuumTables(ctx context.Context, conn *pgx.Conn, c Config) error {
	logf(c, "vacuuming...\n")
	var qs []string
	for _, t := range []string{"pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history"} {
		qs = append(qs, "vacuum analyze "+t)
	}
	return execAll(ctx, conn, "vacuum", qs...)
}

func primaryKeys(ctx context.Context, conn *pgx.Conn, c Config) error {
	logf(c, "creating primary keys...\n")
	ts := ""
	if c.IndexTablespace != "" {
		ts = " using index tablespace " + pgx.Identifier{c.IndexTablespace}.Sanitize()
	}
	return execAll(ctx, conn, "primary keys",
		"alter table pgbench_branches add primary key (bid)"+ts,
		"alter table pgbench_tellers add primary key (tid)"+ts,
		"alter table pgbench_accounts add primary key (aid)"+ts)
}

func foreignKeys(ctx context.Context, conn *pgx.Conn, c Config) error {
	logf(c, "creating foreign keys...\n")
	return execAll(ctx, conn, "foreign keys",
		"alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) references pgbench_branches",
		"alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey foreign key (bid) references pgbench_branches",
		"alter table pgbench_history add constraint pgbench_history_bid_fkey foreign key (bid) references pgbench_branches",
		"alter table pgbench_history add constraint pgbench_history_tid_fkey foreign key (tid) references pgbench_tellers",
		"alter table pgbench_history add constraint pgbench_history_aid_fkey foreign key (aid) references pgbench_accounts")
}
