package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/sink"
)

func newReportCmd(env Env) *cobra.Command {
	var html, md, csv string
	cmd := &cobra.Command{
		Use:     "report FILE.json [FILE.json ...]",
		Short:   "Render result documents as HTML with charts, Markdown or CSV",
		Long:    help("report"),
		Example: help("report-example"),
		Args:    someArgs("report needs at least one result document (FILE.json)"),
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
		if wrote, err := sink.WriteOutputs(env.Stdout, reportOutputs(srcs, html, md, csv)...); wrote || err != nil {
			return err
		}
		return report.Texts(env.Stdout, srcs)
	})
	return cmd
}

// reportOutputs are the rendered reports of srcs to the --html, --md and
// --csv paths.
func reportOutputs(srcs []report.Source, html, md, csv string) []sink.Output {
	return []sink.Output{
		{Flag: "--html", Path: html, Write: func(w io.Writer) error { return report.HTML(w, srcs) }},
		{Flag: "--md", Path: md, Write: func(w io.Writer) error { return report.Markdown(w, srcs) }},
		{Flag: "--csv", Path: csv, Write: func(w io.Writer) error { return report.CSV(w, srcs) }},
	}
}
