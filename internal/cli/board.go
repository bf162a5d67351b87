package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/board"
	"github.com/dbmeter/dbmeter/internal/sink"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// newStudyBoardCmds are study's publish and board subcommands: a study
// result document made safe to share, and many of them on one page.
func newStudyBoardCmds(env Env) []*cobra.Command {
	return []*cobra.Command{newStudyPublishCmd(env), newStudyBoardCmd(env)}
}

func newStudyPublishCmd(env Env) *cobra.Command {
	var out, label string
	cmd := &cobra.Command{
		Use:     "publish RESULT.json -o OUT.json",
		Short:   "Write a copy of a study's result document that is safe to share: host and user names, DSNs, paths and IP addresses replaced",
		Long:    help("study-publish"),
		Example: help("study-publish-example"),
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("study publish needs one study result document, got %d", len(args))
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the published copy to this file (required; gzipped when it ends in .gz)")
	cmd.Flags().StringVar(&label, "label", "", "name the machine on a board (default: the file's name)")
	cmd.RunE = runE(func(_ *cobra.Command, args []string) error {
		if out == "" {
			return usagef("study publish needs -o OUT.json: where to write the published copy")
		}
		host, _ := os.Hostname()
		err := board.PublishTo(env.Stdout, env.Stderr, args[0], out, board.Identity{Hostname: host, User: env.Getenv("USER")}, label)
		return usage.Spell(err, map[string]string{"Output": "-o"})
	})
	return cmd
}

func newStudyBoardCmd(env Env) *cobra.Command {
	var html, md string
	var o board.Options
	cmd := &cobra.Command{
		Use:     "board DIR|FILES… --html board.html [--md board.md]",
		Short:   "Put many machines' runs of one study on one offline page: every cell with its interval, rank and ratio to the best, normalised by the machine reference",
		Long:    help("study-board"),
		Example: help("study-board-example"),
		Args:    someArgs("study board needs study result documents: a directory or files"),
	}
	fs := cmd.Flags()
	fs.StringVar(&html, "html", "", "write the board as one offline HTML page to this file")
	fs.StringVar(&md, "md", "", "write the board's summary as Markdown to this file")
	fs.StringVar(&o.Baseline, "baseline", "", "the machine the others are put beside (default: the one with the fastest CPU loop)")
	fs.StringVar(&o.Note, "note", "", "a note shown at the top of the page (what the machines are)")
	cmd.RunE = runE(func(_ *cobra.Command, args []string) error {
		if html == "" && md == "" {
			return usagef("study board needs --html FILE or --md FILE: where to write the board")
		}
		files, err := board.Files(args)
		if err != nil {
			return usagef("%v", err)
		}
		b, err := board.Build(files, o)
		if err != nil {
			return usagef("%v", err)
		}
		for _, l := range append(append(append([]string{}, b.Refused...), b.Apart...), b.Notes...) {
			fmt.Fprintln(env.Stderr, "study board: "+l)
		}
		_, err = sink.WriteOutputs(env.Stdout,
			sink.Output{Flag: "--html", Path: html, Write: func(w io.Writer) error { return board.WriteHTML(w, b) }},
			sink.Output{Flag: "--md", Path: md, Write: func(w io.Writer) error { board.WriteMarkdown(w, b); return nil }})
		return err
	})
	return cmd
}
