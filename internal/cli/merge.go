package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/merge"
	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/sink"
)

func newMergeCmd(env Env) *cobra.Command {
	var json, html, md, csv, hdrLog string
	var quiet bool
	cmd := &cobra.Command{
		Use:     "merge SHARD.json... [SHARD.hlog...] [--json OUT.json] [--hdr-log OUT.hlog]",
		Short:   "Combine the result documents of the shards of one test, exactly",
		Long:    help("merge"),
		Example: help("merge-example"),
		Args:    someArgs("merge needs the result documents of the shards (SHARD.json ...)"),
	}
	declare(cmd.Flags(),
		opt{"HDRLog", "hdr-log", "", &hdrLog, "write the merge of the given shard interval logs (*.hlog) to this file"},
		opt{"JSON", "json", "", &json, "write the merged result document to this file"},
		opt{"HTML", "html", "", &html, "write a self-contained HTML report with charts to this file"},
		opt{"MD", "md", "", &md, "write the result tables as Markdown to this file"},
		opt{"CSV", "csv", "", &csv, "write one CSV row per run to this file"},
		opt{"Quiet", "quiet", "", &quiet, "do not print the result tables on stdout"})
	cmd.RunE = runE(func(cmd *cobra.Command, args []string) error {
		m, hlog, err := merge.Files(cmd.Context(), args, hdrLog)
		if err != nil {
			return err
		}
		for _, n := range m.Notes(hdrLog) {
			fmt.Fprintln(env.Stderr, "dbmeter: "+n)
		}
		name := "merged"
		if json != "" {
			name = filepath.Base(json)
		}
		srcs := []report.Source{{Name: name, Doc: m.Document()}}
		outs := append(reportOutputs(srcs, html, md, csv),
			sink.Output{Flag: "--json", Path: json, Write: m.Write},
			sink.Output{Flag: "--hdr-log", Path: hdrLog, Write: func(w io.Writer) error { _, err := hlog.WriteTo(w); return err }})
		if _, err := sink.WriteOutputs(env.Stdout, outs...); err != nil || quiet {
			return err
		}
		return report.Text(env.Stdout, srcs[0].Doc)
	})
	return cmd
}
