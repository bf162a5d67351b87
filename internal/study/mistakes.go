package study

import "github.com/dbmeter/dbmeter/internal/usage"

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
