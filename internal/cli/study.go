package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/sink"
	"github.com/dbmeter/dbmeter/internal/study"
)

func newStudyCmd(env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "study",
		Short: "Run a published study (built in: s1 … s5, or your own file) and check its figures and claims here",
		Long: `A study is a YAML file holding a published benchmark: its dbmeter command
lines, the figures it published with the environment they came from, the
tables that put them beside this machine's, and its claims. study run runs
every step, writes one result document, prints each table with the
published figure, the one measured here and their ratio, and gives every
claim a verdict: holds, does not hold, or cannot be checked here (with the
reason). The five seeds' studies are built in as s1 … s5 (docs/studies.md).`,
		Example: `  dbmeter study list
  dbmeter study show s5
  dbmeter study run s5 --quick --json s5.json
  dbmeter study run my-study.yaml --dsn postgres://bench@db1/bench --dsn postgres://bench@db2/bench
  dbmeter study compare a.json b.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newStudyListCmd(env), newStudyShowCmd(env), newStudyRunCmd(env), newStudyCompareCmd(env))
	cmd.AddCommand(newStudyBoardCmds(env)...)
	return cmd
}

func newStudyListCmd(env Env) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the built-in studies",
		Args:  noArgs,
		RunE: runE(func(*cobra.Command, []string) error {
			list, err := study.List()
			fmt.Fprint(env.Stdout, list)
			return err
		}),
	}
}

func newStudyShowCmd(env Env) *cobra.Command {
	return &cobra.Command{
		Use:   "show ID|FILE",
		Short: "Show a study's steps, what they scale, and its published figures and claims",
		Long: `show prints a study's steps (both forms of each command line), what the
quick form scales, how many published figures its tables hold, and every
claim study run will judge, with the cells it reads and its bounds: what a
run decides, before it runs. Given a file, it checks it first and names
every mistake at once, each with its line and field.

A study file is YAML: id, title, source, about, scaling, environments,
steps (id, run, quick, why, setup), tables (id, title, step, rows,
columns, where, figure, unit, environment, header, published, …) and
claims (id, text, kind, cells or a and b, above, below, note, …). The
format, its placeholders and every field are described in docs/studies.md;
the built-in studies (dbmeter study show s5) are worked examples.`,
		Args: someArgs("study show needs a study: a built-in id (s1 … s5) or a file"),
		RunE: runE(func(_ *cobra.Command, args []string) error {
			s, err := loadStudy(env, args[0])
			if err != nil {
				return err
			}
			fmt.Fprint(env.Stdout, study.Describe(s))
			return nil
		}),
	}
}

// loadStudy reads a study and parses its steps' command lines, printing
// each mistake of a file on a line of its own before the one-line error.
func loadStudy(env Env, idOrFile string) (*study.Study, error) {
	s, es, err := study.LoadChecked(idOrFile, studyFlags(), func(args []string) error { return parseStep(env, args) })
	for _, e := range es {
		fmt.Fprintln(env.Stderr, "dbmeter: "+e.Error())
	}
	return s, err
}

// studyFlags spell the flags the study package puts on its steps' command
// lines (each server as --dsn, which pg and ch take) and names in its
// messages (study run's own --dsn).
func studyFlags() study.Flags { return study.Flags{Server: "--dsn", Servers: "--dsn"} }

// parseStep parses a step's command line as dbmeter would, without running
// it: the command must exist and take every flag given, and leave out
// those study run sets itself.
func parseStep(env Env, args []string) error {
	root := newRoot(env)
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if cmd == root || cmd.RunE == nil {
		return fmt.Errorf("%q is not a dbmeter command that runs", strings.Join(args, " "))
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return fmt.Errorf("%s: %v", cmd.CommandPath(), suggestFlag(cmd, err))
	}
	for _, name := range []string{"json", "quiet"} { // study run sets them (study.Exec.ResultArgs)
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s is set by study run itself: remove it", name)
		}
	}
	if cmd.Args != nil {
		if err := cmd.Args(cmd, cmd.Flags().Args()); err != nil {
			return err
		}
	}
	return nil
}

func newStudyRunCmd(env Env) *cobra.Command {
	var o study.Options
	var dsns []string
	var jsonPath string
	cmd := &cobra.Command{
		Use:   "run ID|FILE",
		Short: "Run every step of a study and put its figures beside the published ones",
		Long: `run runs the study's steps one after the other, each as the dbmeter command
line the file gives (a process of its own, this same binary), and writes one
result document holding every step's runs, the study's id and the file's
SHA-256 (--json). It prints each table with published, measured and their
ratio, a verdict for every claim, and the differences between the published
environment and this one.
Servers: the servers given with --dsn are the only ones used; with no
--dsn, the environment's. {pg} in a step is each --dsn postgres://… (else
$DBMETER_PG_DSN), {pg1} and {pg2} the first and the second alone;
{clickhouse}, a modern ClickHouse, is --dsn clickhouse://… (else
$DBMETER_CLICKHOUSE_MODERN_DSN, else $DBMETER_CLICKHOUSE_DSN unless it is
the legacy server), and without one the protocol stand-in, labelled: its
figures are printed, never compared with a published one;
{clickhouse-legacy}, the 18.16 server, is --dsn
clickhouse-legacy=clickhouse://… (else $DBMETER_CLICKHOUSE_LEGACY_DSN).
A --dsn that is not such a server, or a ClickHouse too old for
{clickhouse}, is refused before any step runs. A step whose server is not
given is skipped, and its claims cannot be checked here. A placeholder may add DSN
parameters for its step: {clickhouse-legacy?compress=lz4}.`,
		Args: someArgs("study run needs a study: a built-in id (s1 … s5) or a file"),
	}
	fs := cmd.Flags()
	fs.BoolVar(&o.Quick, "quick", false, "run each step's quick form (a few minutes on 2 cores; the study says what it scales)")
	fs.StringArrayVar(&dsns, "dsn", nil, "a server for the study's steps, instead of the environment's: postgres://… (repeat for several), clickhouse://… (a modern ClickHouse), clickhouse-legacy=clickhouse://… (the 18.16 server)")
	fs.StringVar(&jsonPath, "json", "", "write the study's result document to this file")
	fs.DurationVar(&o.UntilDecided, "until-decided", 0, "then run the steps of undecided claims again, pooling their runs, until every claim is decided or this budget is spent (alone: 30m)")
	fs.Lookup("until-decided").NoOptDefVal = "30m"
	cmd.RunE = runE(func(cmd *cobra.Command, args []string) error {
		s, err := loadStudy(env, args[0])
		if err != nil {
			return err
		}
		if o.Servers, err = studyServers(dsns, env.Getenv); err != nil {
			return err
		}
		if err := study.CheckServers(cmd.Context(), s, o.Servers, studyFlags(), defaultConnectTimeout); err != nil {
			return err
		}
		o.Log, o.Flags, o.Standin = env.Stderr, studyFlags(), study.NullStandin
		steps, err := study.NewExec(env.Stderr, storageProbeShareEnv)
		if err != nil {
			return err
		}
		defer steps.Close()
		steps.ResultArgs = func(path string) []string { return []string{"--json", path, "--quiet"} }
		steps.CannotRun, steps.ServerFlag, steps.ServerEnv = exitCannotRun, studyFlags().Server, study.ServersEnv
		doc, runErr := study.Run(cmd.Context(), s, steps, o)
		if doc == nil {
			return runErr
		}
		if jsonPath != "" {
			if err := (sink.Output{Flag: "--json", Path: jsonPath, Write: func(w io.Writer) error { return study.Write(w, doc) }}).Save(env.Stdout); err != nil {
				return err
			}
		}
		return study.WriteRun(env.Stdout, s, doc, runErr)
	})
	return cmd
}

func newStudyCompareCmd(env Env) *cobra.Command {
	return &cobra.Command{
		Use:   "compare A.json B.json",
		Short: "Compare two runs of a study: B over A per cell, with its 95% interval, and a geometric mean per kind of figure",
		Long: `compare prints, for every cell both runs measured, A, B, B/A and the
ratio's 95% interval (* when it excludes 1), then the geometric mean of
B/A for each kind of figure (throughput, rows, bytes, latency, time per
operation, spread), never pooled across kinds: a time per operation is
its throughput inverted, and pooled the two cancel. The cells of a step
that failed or was interrupted in either run are left out and named. For
each step both ran, it says how much of the difference the machines'
references explain (their load, their CPU or disk).`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("study compare needs two study result documents (A.json B.json), got %d", len(args))
			}
			return nil
		},
		RunE: runE(func(_ *cobra.Command, args []string) error {
			c, err := study.CompareFiles(args[0], args[1])
			if err != nil {
				return err
			}
			study.WriteComparison(env.Stdout, c)
			return nil
		}),
	}
}
