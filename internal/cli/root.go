// Package cli is dbmeter's command line: one file per subcommand, binding
// flags to the plain config structs of the packages that do the work, and
// mapping outcomes to exit codes (0 ok, 1 failed run, 2 usage,
// 128+signal when interrupted).
package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/interrupt"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/study"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Env is the process state a command may use. Nothing else is global.
type Env struct {
	Args   []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// Main runs dbmeter with env and returns the process exit code, having
// printed the command's error, if any, as one line.
func Main(ctx context.Context, env Env) int {
	if env.Getenv != nil { // a study's step: its servers, out of its command line
		env.Args = study.StepServers(env.Args, env.Getenv(study.ServersEnv), studyFlags().Server)
	}
	var prof profiler
	stderr := &usage.Writer{W: env.Stderr}
	env.Stderr = stderr
	root := commandTree(env, &prof)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		stderr.Spelling = commandSpelling(cmd)
		if err := checkOutputs(cmd); err != nil {
			return err
		}
		return prof.start()
	}
	defer prof.stop()
	root.SetArgs(env.Args)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetIn(env.Stdin)
	cmd, err := root.ExecuteContextC(ctx)
	if sig, ok := interrupt.Of(ctx); ok {
		return sig.ExitCode()
	}
	if err == nil {
		return exitOK
	}
	code := exitCodeOf(err)
	if msg := redact.Line(usage.Spell(err, commandSpelling(cmd))); msg != "" {
		if code == exitUsage {
			msg += fmt.Sprintf(" (see '%s --help')", cmd.CommandPath())
		}
		fmt.Fprintln(env.Stderr, "dbmeter: "+msg)
	}
	return code
}

// commandTree is every command and flag of dbmeter, the profiler's
// included: what Main runs, and what the docs' flags are checked against.
func commandTree(env Env, prof *profiler) *cobra.Command {
	root := newRoot(env)
	root.PersistentFlags().StringVar(&prof.path, "cpuprofile", "", "write a Go CPU profile of dbmeter itself to this file (go tool pprof reads it)")
	return root
}

func newRoot(env Env) *cobra.Command {
	root := &cobra.Command{
		Use:           "dbmeter",
		Short:         "Benchmark database clients and storage engines side by side",
		Long:          help("dbmeter"),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          noArgs,
		RunE:          func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usage.Wrap(suggestFlag(c, err)) })
	root.AddCommand(
		newKVCmd(env),
		newPGCmd(env),
		newCHCmd(env),
		newNullCmd(env),
		newCalibrateCmd(env),
		newVersionCmd(env),
		newReportCmd(env),
		newCompareCmd(env),
		newMergeCmd(env),
		newStudyCmd(env),
	)
	return root
}

// noArgs rejects positional arguments with a usage error, and names an
// unknown subcommand as such.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.HasSubCommands() {
		return usagef("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	return usagef("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
}

// someArgs requires at least one positional argument, saying missing when
// there is none.
func someArgs(missing string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usagef("%s", missing)
		}
		return nil
	}
}

// runE marks every error a command returns as a failed run unless it says
// it is a usage error.
func runE(fn func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := fn(cmd, args)
		if err == nil || usage.Is(err) {
			return err
		}
		return runError{err}
	}
}
