package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/report"
)

func newReportCmd(env Env) *cobra.Command {
	var html, md, csv string
	cmd := &cobra.Command{
		Use:   "report FILE.json [FILE.json ...]",
		Short: "Render result documents as HTML with charts, Markdown or CSV",
		Long: `report reads result documents written with --json and renders them: a
self-contained HTML page with charts (--html), Markdown tables in the seeds'
layout (--md), one CSV row per run (--csv). With several files, the charts
overlay their runs. With no output flag it prints the text tables. A path
of - writes to stdout.`,
		Example: `  dbmeter report r.json --html r.html
  dbmeter report fsync-on.json fsync-off.json --html kv.html --md kv.md`,
		Args: someArgs("report needs at least one result document (FILE.json)"),
	}
	f := cmd.Flags()
	f.StringVar(&html, "html", "", "write a self-contained HTML report with charts to this file")
	f.StringVar(&md, "md", "", "write Markdown tables to this file")
	f.StringVar(&csv, "csv", "", "write one CSV row per run to this file")
	cmd.RunE = runE(func(cmd *cobra.Command, args []string) error {
		if ok, err := reportStudy(env, args, html, md, csv); ok || err != nil {
			return err
		}
		srcs, err := report.ReadSources(args...)
		if err != nil {
			return err
		}
		if wrote, err := writeOutputs(env, reportOutputs(srcs, html, md, csv)...); wrote || err != nil {
			return err
		}
		return report.Texts(env.Stdout, srcs)
	})
	return cmd
}

// output is a file a command writes on request: the flag that asks for it,
// its path ("" when not asked for; "-" for stdout) and how to write it.
type output struct {
	flag, path string
	write      func(io.Writer) error
}

// reportOutputs are the rendered reports of srcs to the --html, --md and
// --csv paths.
func reportOutputs(srcs []report.Source, html, md, csv string) []output {
	return []output{
		{"html", html, func(w io.Writer) error { return report.HTML(w, srcs) }},
		{"md", md, func(w io.Writer) error { return report.Markdown(w, srcs) }},
		{"csv", csv, func(w io.Writer) error { return report.CSV(w, srcs) }},
	}
}

// writeOutputs writes the outputs asked for and says whether there were
// any. A file that cannot be created is a usage error.
func writeOutputs(env Env, outs ...output) (wrote bool, err error) {
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		wrote = true
		if err := writeTo(env, o.flag, o.path, o.write); err != nil {
			return true, err
		}
	}
	return wrote, nil
}

// writeTo writes to path, or to stdout for "-".
func writeTo(env Env, flag, path string, write func(io.Writer) error) error {
	if path == "-" {
		return write(env.Stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return usagef("cannot write --%s %s: %v", flag, path, errors.Unwrap(err))
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
