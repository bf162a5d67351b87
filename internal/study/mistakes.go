package study

import (
	"errors"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// Summary is the line said after a study file's mistakes, each said on a
// line of its own before it: how many, and where the format is described.
// It is the user's mistake (a usage error).
func (es Errors) Summary(file string) error {
	what, where := "mistakes", "each on a line above"
	if len(es) == 1 {
		what, where = "mistake", "on the line above"
	}
	return usage.Errorf("%s: %d %s in the study file, %s; the format is described in docs/studies.md", file, len(es), what, where)
}

// LoadChecked is Load with every step's command lines checked too
// (CheckSteps, parse being the CLI's own parsing), in one pass: the study,
// or every mistake of the file and of its command lines, in line order,
// and the usage error that sums them up (Summary).
func LoadChecked(idOrFile string, f Flags, parse func(args []string) error) (*Study, Errors, error) {
	s, err := Load(idOrFile)
	var es Errors
	if isErrs := errors.As(err, &es); s != nil && (isErrs || err == nil) {
		es = es.With(CheckSteps(s, f, parse))
	}
	if len(es) > 0 {
		return nil, es, es.Summary(idOrFile)
	}
	if err != nil {
		return nil, nil, err
	}
	return s, nil, nil
}
