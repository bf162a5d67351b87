package ch

import (
	"fmt"

	"github.com/dbmeter/dbmeter/internal/redact"
)

// String is the worker's line in `dbmeter version`: its script, then the
// language, runtime and library it runs on, or why it cannot run here.
func (v WorkerVersion) String() string {
	what := v.Hello.Runtime + ", " + v.Hello.Library
	if v.Hello.Language != "" {
		what = v.Hello.Language + " " + what
	}
	if v.Err != nil {
		what = "cannot run here: " + redact.Line(v.Err)
	}
	return fmt.Sprintf("%-45s %s", "workers/"+v.Script, what)
}
