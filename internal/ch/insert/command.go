package insert

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Command is `ch insert`'s command line as the CLI binds it: the strings
// as typed, which Resolve parses, and Config's own options bound directly.
// Its errors are usage errors that name settings as {Field} (a field of
// Command, Config or load.Config), which the CLI spells as its flags.
type Command struct {
	DSN, Clients, Table string
	// Schema names the table's columns and rows (LookupSchema); "" is
	// the event table.
	Schema string
	// DumpFormat, when set, writes the generated rows instead of running.
	DumpFormat string
	Config     Config
	// Given says whether the user set a setting, by its field name: one
	// left at its default cannot contradict another.
	Given func(field string) bool
	// Getenv reads DBMETER_CLICKHOUSE_DSN when DSN is empty.
	Getenv func(string) string
}

func (cmd Command) given(field string) bool { return cmd.Given != nil && cmd.Given(field) }

// check refuses what only the command line can get wrong: a row count
// given as 0 (0 in Config means "run for the duration").
func (cmd Command) check(c Config) error {
	if cmd.given("Rows") && c.Rows < 1 {
		return usage.Errorf("{Rows} must be at least 1, got %d", c.Rows)
	}
	return usage.Wrap(c.validateRows())
}

// Resolve checks the command line and returns the validated Config it asks
// for. warmup is the Warmup given, and runFlags checks the shared run
// settings into the load configuration: Rows replaces Duration, so the
// run settings that contradict it are refused by name before runFlags can
// refuse them in its own words.
func (cmd Command) Resolve(warmup time.Duration, runFlags func() (load.Config, error), repeat int, params map[string]string) (Config, error) {
	if err := cmd.readSchema(); err != nil {
		return cmd.Config, err
	}
	if b := cmd.Config.Batches; len(b) > 0 {
		cmd.Config.Batch = b[0]
		if len(b) == 1 {
			cmd.Config.Batches = nil
		}
	}
	c := cmd.Config
	if c.Rows > 0 {
		switch {
		case cmd.given("Duration"):
			return c, usage.Errorf("{Rows} and {Duration} contradict each other: give one")
		case cmd.given("Count"):
			return c, usage.Errorf("{Rows} and {Count} contradict each other: give one ({Count} counts blocks)")
		}
	}
	c.Load.Warmup = warmup
	if err := cmd.check(c); err != nil {
		return c, err
	}
	cfg, err := runFlags()
	if err != nil {
		return c, err
	}
	c.Load, c.Repeat, c.Params = cfg, repeat, params
	if c.Table, err = ParseTable(cmd.Table); err != nil {
		return c, usage.Wrap(err)
	}
	c = c.ForShard()
	if c.DSN, err = ch.ResolveDSN(cmd.DSN, cmd.Getenv, "NoDelay", "Batch"); err != nil {
		return c, err
	}
	if cmd.DSN == "" && c.Params != nil {
		c.Params["dsn"] = c.DSN.String() // from the environment: the result still names the server
	}
	c.Getenv = cmd.Getenv
	clients := cmd.Clients
	if c.WorkerCmd != "" && !cmd.given("Clients") {
		clients = "worker" // a WorkerCmd alone runs the user's worker
	}
	if strings.TrimSpace(clients) != Auto {
		for n := range strings.SplitSeq(clients, ",") {
			if n = strings.TrimSpace(n); n != "" && !slices.Contains(c.Clients, n) {
				c.Clients = append(c.Clients, n)
			}
		}
		if len(c.Clients) == 0 {
			return c, usage.Errorf("{Clients} is empty: name at least one of %s", strings.Join(Names(), ", "))
		}
	}
	return c, usage.Wrap(c.Validate())
}

// Dump writes the rows a run of the command with seed would insert to w,
// in DumpFormat, for scripts/ch-insert-ceiling.sh. It runs nothing, so the
// run flags do not matter.
func (cmd Command) Dump(w io.Writer, seed uint64) error {
	if err := cmd.readSchema(); err != nil {
		return err
	}
	c := cmd.Config
	if b := c.Batches; len(b) > 0 {
		c.Batch = b[0] // a list's first: a dump is of one block size
	}
	if err := cmd.check(c); err != nil {
		return err
	}
	if c.Rows < 1 {
		return usage.Errorf("{DumpFormat} needs {Rows}")
	}
	// Checked before the rows are made, which takes a while for many.
	if err := checkDumpFormat(cmd.DumpFormat); err != nil {
		return usage.Wrap(err)
	}
	ring := c.schema().Ring(seed, c.Batch, event.RingSize(c.Batch, c.Rows))
	return Dump(w, cmd.DumpFormat, ring, c.Batch, c.Rows)
}

// NoRun is the error of a plan that ended with no run to report: execErr
// is plan.Execute's, nil when the plan was interrupted before its first
// run ended. secrets are masked in it.
func NoRun(execErr error, secrets ...string) error {
	if execErr == nil {
		return errors.New("interrupted: no client ran")
	}
	return fmt.Errorf("no client ran: %s", redact.Line(redact.Err(execErr, secrets...)))
}

// Outcome sums up, in one line, what went wrong in a plan whose runs were
// reported: finishErr from writing the results, the clients refused, and
// the runs that failed (execErr from plan.Execute). Each refusal and
// failure was said on a line of its own already; nil when nothing failed.
func (p *Prepared) Outcome(execErr, finishErr error) error {
	var problems []string
	if finishErr != nil {
		problems = append(problems, finishErr.Error())
	}
	if len(p.Refused) > 0 {
		problems = append(problems, RefusedLine(p.Refused, p.server))
	}
	if execErr != nil {
		problems = append(problems, fmt.Sprintf("%d client runs failed or left their rows unverified (see above)", len(plan.Errors(execErr))))
	}
	if len(problems) == 0 {
		return nil
	}
	return errors.New(strings.Join(problems, "; "))
}
