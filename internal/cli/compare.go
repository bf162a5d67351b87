package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/sink"
)

func newCompareCmd(env Env) *cobra.Command {
	var format, out string
	var vary []string
	cmd := &cobra.Command{
		Use:     "compare BASE.json NEW.json | BASE.json... -- NEW.json...",
		Short:   "Compare result documents (two, or several per side) figure by figure, with significance",
		Long:    help("compare"),
		Example: help("compare-example"),
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "text", "output format: text or gobench")
	f.StringVarP(&out, "output", "o", "-", "write to this file instead of stdout")
	f.StringArrayVar(&vary, "vary", nil, "a knob (a run param such as bbolt.freelist_type) whose settings to compare, repeatable")
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		return compareArgs(format, cmd.ArgsLenAtDash(), len(args))
	}
	cmd.RunE = runE(func(cmd *cobra.Command, args []string) error {
		srcs, err := report.ReadSources(args...)
		if err != nil {
			return err
		}
		return sink.Output{Flag: "--output", Path: out, Write: func(w io.Writer) error {
			if format == "gobench" {
				return report.GoBench(w, srcs)
			}
			split := cmd.ArgsLenAtDash()
			if split < 0 {
				split = 1
			}
			err := report.CompareSides(w, srcs[:split], srcs[split:], vary...)
			if errors.Is(err, report.ErrNothingCompared) && len(vary) == 0 {
				err = fmt.Errorf("%w; to compare settings of a knob, name it: --vary KNOB", err)
			}
			return err
		}}.Save(env.Stdout)
	})
	return cmd
}

// compareArgs checks compare's documents: n of them, split at dash (-1
// with no --), for the output format.
func compareArgs(format string, dash, n int) error {
	switch {
	case format != "text" && format != "gobench":
		return usagef("unknown --format %q: want text or gobench", format)
	case format == "gobench" && n == 0:
		return usagef("compare --format gobench needs at least one result document")
	case format == "text" && dash == 0:
		return usagef("compare needs at least one base document before --")
	case format == "text" && dash > 0 && dash == n:
		return usagef("compare needs at least one new document after --")
	case format == "text" && dash < 0 && n != 2:
		return usagef("compare needs two result documents, BASE.json and NEW.json, or several per side: BASE.json... -- NEW.json...; got %d", n)
	}
	return nil
}
