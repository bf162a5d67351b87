package insert

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// command is ch insert's command line with the CLI's defaults and the
// flags in given set by the user.
func command(given ...string) Command {
	return Command{
		DSN: "clickhouse://u:pw@127.0.0.1:9000/db", Clients: "auto", Table: DefaultDatabase + ".event",
		Config: Config{Batch: 100_000, BlocksPerInsert: 1, NoDelay: true},
		Given:  func(field string) bool { return slices.Contains(given, field) },
	}
}

// runFlags stands for the CLI's checked run flags: no warm-up, as ch
// insert's default.
func runFlags() (load.Config, error) { return workers(load.DefaultWorkers)() }

func workers(n int) func() (load.Config, error) {
	return func() (load.Config, error) {
		cfg := load.DefaultConfig()
		cfg.Warmup, cfg.Workers = 0, n
		return cfg, nil
	}
}

func TestCommandResolveRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		edit   func(c *Command)
		given  []string
		warmup time.Duration
		want   string
	}{
		{"zero batch", func(c *Command) { c.Config.Batch = 0 }, nil, 0, "{Batch} must be at least 1, got 0"},
		{"zero rows", func(c *Command) {}, []string{"Rows"}, 0, "{Rows} must be at least 1, got 0"},
		{"zero blocks per insert", func(c *Command) { c.Config.BlocksPerInsert = 0 }, nil, 0, "{BlocksPerInsert} must be at least 1, got 0"},
		{"too many extra columns", func(c *Command) { c.Config.ExtraColumns, c.Config.Create = MaxExtraColumns+1, true }, nil, 0,
			fmt.Sprintf("{ExtraColumns} must be 0 to %d, got %d", MaxExtraColumns, MaxExtraColumns+1)},
		{"extra columns without create", func(c *Command) { c.Config.ExtraColumns = 5 }, []string{"ExtraColumns"}, 0,
			"{ExtraColumns} shapes the table {Create} makes: add {Create}"},
		{"rows and duration", func(c *Command) { c.Config.Rows = 10 }, []string{"Rows", "Duration"}, 0, "{Rows} and {Duration} contradict each other: give one"},
		{"rows and count", func(c *Command) { c.Config.Rows = 10 }, []string{"Rows", "Count"}, 0, "{Rows} and {Count} contradict each other"},
		{"rows and warmup", func(c *Command) { c.Config.Rows = 10 }, []string{"Rows", "Warmup"}, time.Second, "{Warmup} needs {Duration}"},
		{"bad table", func(c *Command) { c.Table = "a.b.c" }, nil, 0, `table "a.b.c": want db.name`},
		{"no dsn", func(c *Command) { c.DSN = "" }, nil, 0, "{DSN} is required: the ClickHouse server's native address"},
		{"bad dsn", func(c *Command) { c.DSN = "http://u:pw@h:8123" }, nil, 0, "want clickhouse://"},
		{"empty clients", func(c *Command) { c.Clients = " , " }, nil, 0, "{Clients} is empty: name at least one of ch-go, "},
		{"unknown client", func(c *Command) { c.Clients = "odbc" }, nil, 0, `unknown client "odbc"; known: ch-go, `},
		{"fewer blocks than workers", func(c *Command) { c.Config.Rows = 10 }, []string{"Rows"}, 0,
			"{Rows} 10 makes 1 blocks of {Batch} 100000, fewer than {Workers} 4: lower {Batch} or {Workers}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := command(tt.given...)
			tt.edit(&cmd)
			_, err := cmd.Resolve(tt.warmup, workers(4), 1, nil)
			if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Resolve() = %v (usage error: %v), want a usage error containing %q", err, usage.Is(err), tt.want)
			}
		})
	}
}

func TestCommandResolve(t *testing.T) {
	t.Parallel()
	cmd := command("Rows", "Clients")
	cmd.Clients, cmd.Config.Rows, cmd.Config.Batch = " ch-go,sqlx ,ch-go,", 10, 1
	params := map[string]string{"batch": "1"}
	c, err := cmd.Resolve(0, runFlags, 3, params)
	if err != nil {
		t.Fatal(err)
	}
	if d := c.DSN; d.Addr != "127.0.0.1:9000" || d.Database != "db" || d.User != "u" || d.Password != "pw" || !slices.Equal(c.Clients, []string{"ch-go", "sqlx"}) || c.Table != (Table{DefaultDatabase, "event"}) ||
		c.Rows != 10 || c.Repeat != 3 || c.Params["batch"] != "1" || c.Load.Workers != load.DefaultWorkers {
		t.Errorf("Resolve() = %+v", c)
	}
}

// The run flags are checked after ch insert's contradictions with them,
// and their error comes back as it is.
func TestCommandResolveRunFlags(t *testing.T) {
	t.Parallel()
	bad := usage.Errorf("--repeat must be at least 1, got 0")
	failing := func() (load.Config, error) { return load.Config{}, bad }
	cmd := command("Rows", "Duration")
	cmd.Config.Rows = 10
	if _, err := cmd.Resolve(0, failing, 0, nil); err == nil || !strings.Contains(err.Error(), "{Rows} and {Duration}") {
		t.Errorf("Resolve() = %v, want the contradiction before the run flags' error", err)
	}
	if _, err := command().Resolve(0, failing, 0, nil); err != bad {
		t.Errorf("Resolve() = %v, want the run flags' error %v", err, bad)
	}
}

func TestCommandDump(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, format string
		rows         int64
		want         string // "" : 3 TSV lines
	}{
		{"no rows", DumpTSV, 0, "{DumpFormat} needs {Rows}"},
		{"unknown format", "CSV", 3, `dump format "CSV": want Native, TSV or worker-rows`},
		{"tsv", DumpTSV, 3, ""},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		cmd := command()
		cmd.DumpFormat, cmd.Config.Rows, cmd.Config.Batch = tt.format, tt.rows, 2
		err := cmd.Dump(&out, load.DefaultSeed)
		switch {
		case tt.want != "" && (!usage.Is(err) || !strings.Contains(err.Error(), tt.want) || out.Len() > 0):
			t.Errorf("%s: Dump() = %v and %d bytes, want a usage error containing %q and nothing written", tt.name, err, out.Len(), tt.want)
		case tt.want == "" && (err != nil || strings.Count(out.String(), "\n") != 3):
			t.Errorf("%s: Dump() = %v, %q; want 3 rows", tt.name, err, out.String())
		}
	}
}

func TestOutcome(t *testing.T) {
	t.Parallel()
	server := ch.Version{Major: 18, Minor: 16}
	tooNew := ch.CheckServer("ch-go", server, ch.MinModernServer)
	failed := errors.Join(errors.New("sqlx/insert: rows not verified"), errors.New("gorm/insert: server gone"))
	tests := []struct {
		name            string
		refused         []error
		execErr, finish error
		want            string // "" : nil
	}{
		{"all good", nil, nil, nil, ""},
		{"refused", []error{tooNew}, nil, nil, "refused ch-go: too new for ClickHouse 18.16"},
		{"failed", nil, failed, nil, "2 client runs failed or left their rows unverified (see above)"},
		{"all", []error{tooNew}, failed, errors.New("write r.json: disk full"),
			"write r.json: disk full; refused ch-go: too new for ClickHouse 18.16.0 (see above); 2 client runs failed"},
	}
	for _, tt := range tests {
		p := &Prepared{Refused: tt.refused, server: server}
		err := p.Outcome(tt.execErr, tt.finish)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || usage.Is(err) || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: Outcome() = %v, want a run error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestNoRun(t *testing.T) {
	t.Parallel()
	if err := NoRun(nil); err == nil || err.Error() != "interrupted: no client ran" {
		t.Errorf("NoRun(nil) = %v", err)
	}
	err := NoRun(errors.New("ch-go/insert: dial tcp: password s3cret\nrefused"), "s3cret")
	if err == nil || !strings.HasPrefix(err.Error(), "no client ran: ch-go/insert: dial tcp") || strings.ContainsAny(err.Error(), "\n") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("NoRun() = %q, want one line with the secret masked", err)
	}
}
