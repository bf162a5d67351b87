package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/sink"
	"github.com/dbmeter/dbmeter/internal/storage"
	"github.com/dbmeter/dbmeter/internal/study"
)

func newStudyCmd(env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "study",
		Short:   "Run a published study (built in: s1 … s5, or your own file) and check its figures and claims here",
		Long:    help("study"),
		Example: help("study-example"),
		Args:    noArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
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
		Long:  help("study-show"),
		Args:  someArgs("study show needs a study: a built-in id (s1 … s5) or a file"),
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
		Long:  help("study-run"),
		Args:  someArgs("study run needs a study: a built-in id (s1 … s5) or a file"),
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
		if o.Servers, err = study.ResolveServers(dsns, studyFlags(), env.Getenv); err != nil {
			return err
		}
		if err := study.CheckServers(cmd.Context(), s, o.Servers, studyFlags(), defaultConnectTimeout); err != nil {
			return err
		}
		o.Log, o.Flags, o.Standin = env.Stderr, studyFlags(), study.NullStandin
		steps, err := study.NewExec(env.Stderr, storage.ProbeShareEnv)
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
		Long:  help("study-compare"),
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
