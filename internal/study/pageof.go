package study

import (
	"cmp"
	"io"

	"github.com/dbmeter/dbmeter/internal/report"
)

// WriteRun prints a study run's page for the terminal and says how the
// run ended: its error (interrupted), else its first failed step's.
func WriteRun(w io.Writer, s *Study, doc *Document, runErr error) error {
	err := report.PageText(w, Page(Evaluate(s, doc)))
	return cmp.Or(err, runErr, doc.Failure())
}

// ReadPage is the page of the study result document at path, its claims
// judged again from the study file it holds (dbmeter report).
func ReadPage(path string) (report.Page, error) {
	doc, s, err := ReadDocument(path)
	if err != nil {
		return report.Page{}, err
	}
	return Page(Evaluate(s, doc)), nil
}
