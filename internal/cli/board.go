package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/board"
	"github.com/dbmeter/dbmeter/internal/sink"
)

// newStudyBoardCmds are study's publish and board subcommands: a study
// result document made safe to share, and many of them on one page.
func newStudyBoardCmds(env Env) []*cobra.Command {
	return []*cobra.Command{newStudyPublishCmd(env), newStudyBoardCmd(env)}
}

func newStudyPublishCmd(env Env) *cobra.Command {
	var out, label string
	cmd := &cobra.Command{
		Use:   "publish RESULT.json -o OUT.json",
		Short: "Write a copy of a study's result document that is safe to share: host and user names, DSNs, paths and IP addresses replaced",
		Long: `publish checks a study's result document (study run --json) against the
result schema (docs/result-schema.md), refusing one that breaks it with one
line per problem, and writes a copy in which every host name, DSN user and
password, user name, absolute path and IP address is replaced by a stable
pseudonym (host-1, user-1, path-2, ip-1). The copy records what was
replaced (kinds, counts, pseudonyms: never the values), and study board
shows it. Loopback addresses and the study file are kept.`,
		Example: `  dbmeter study publish s5.json -o s5-public.json --label "laptop, NVMe"`,
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
		copyData, p, problems, err := board.PublishFile(args[0], board.Identity{Hostname: host, User: env.Getenv("USER")}, label)
		for _, pr := range problems {
			fmt.Fprintf(env.Stderr, "dbmeter: %s: %s\n", args[0], pr)
		}
		if err != nil {
			return err
		}
		if out == "-" {
			_, err = env.Stdout.Write(copyData)
		} else {
			err = board.WriteFile(out, copyData)
		}
		if err != nil {
			return usagef("cannot write -o %s: %v", out, err)
		}
		for _, l := range p.Lines() {
			fmt.Fprintln(env.Stderr, "study publish: "+l)
		}
		return nil
	})
	return cmd
}

func newStudyBoardCmd(env Env) *cobra.Command {
	var html, md string
	var o board.Options
	cmd := &cobra.Command{
		Use:   "board DIR|FILES… --html board.html [--md board.md]",
		Short: "Put many machines' runs of one study on one offline page: every cell with its interval, rank and ratio to the best, normalised by the machine reference",
		Long: `board reads study result documents (files, or every *.json and *.json.gz of a directory)
of the same study and writes one page: per machine its environment and
machine reference; per cell each machine's value with its 95 % interval,
its rank with a bootstrapped interval and its ratio to the best; the cells
divided by the reference probe each figure depends on, and how much of the
spread across machines that explains; a geometric mean per kind of figure;
and the claims' verdicts counted across machines. Documents are compared
only when they ran the same study file, dbmeter version and command lines:
any other is shown apart with one line saying why, and a document that
breaks the schema is refused with one line.`,
		Example: `  dbmeter study board docs/board --html board.html --md board.md --baseline plain`,
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
