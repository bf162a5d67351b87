package cli

import (
	"io"
	"os"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/sink"
	"github.com/dbmeter/dbmeter/internal/study"
)

// reportStudy renders a study's result document for dbmeter report; ok is
// false when the first file is not one.
func reportStudy(env Env, args []string, html, md, csv string) (ok bool, err error) {
	path := args[0]
	if data, err := os.ReadFile(path); err != nil || !study.IsDocument(data) {
		return false, nil
	}
	if len(args) > 1 {
		return true, usagef("%s is a study's result document: report renders one at a time (compare two with dbmeter study compare)", path)
	}
	if csv != "" {
		return true, usagef("%s is a study's result document: report renders it as text, --md or --html, not --csv", path)
	}
	p, err := study.ReadPage(path)
	if err != nil {
		return true, err
	}
	wrote, err := sink.WriteOutputs(env.Stdout,
		sink.Output{Flag: "--md", Path: md, Write: func(w io.Writer) error { return report.PageMarkdown(w, p) }},
		sink.Output{Flag: "--html", Path: html, Write: func(w io.Writer) error { return report.PageHTML(w, p) }})
	if wrote || err != nil {
		return true, err
	}
	return true, report.PageText(env.Stdout, p)
}
