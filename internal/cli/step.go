package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/storage"
	"github.com/dbmeter/dbmeter/internal/study"
)

// stepRunner runs a step in this process through a fresh command tree:
// the same binary and build as the study, no second process to find, and
// the command's flags parsed exactly as on the command line. Commands
// keep no package-level state (a lint rule), so one step cannot leak into
// the next.
type stepRunner struct{ env Env }

func (r stepRunner) Step(ctx context.Context, args []string, jsonPath string) error {
	env := r.env
	env.Args = append([]string{}, args...)
	if jsonPath != "" {
		env.Args = append(env.Args, "--json", jsonPath, "--quiet")
	}
	env.Stdout = io.Discard
	code, err := mainErr(ctx, env)
	var refusal *storage.Refusal
	if errors.As(err, &refusal) {
		// A storage profile this machine cannot apply (no root, no
		// cgroup controller, no block device): the step cannot run here,
		// and its claims say so, where a failure would fail the study.
		return &study.Unavailable{Reason: refusal.Error()}
	}
	if code != exitOK && !onlyEmpty(code, jsonPath) {
		return fmt.Errorf("exit status %d", code)
	}
	return nil
}

// onlyEmpty says whether a step's exit 1 says only that some variant
// completed no operation (a cell the engine cannot finish in so short a
// window): the step measured what it could, and its document shows the
// empty cell as such, so the study goes on with it.
func onlyEmpty(code int, jsonPath string) bool {
	if code != exitFailed || jsonPath == "" {
		return false
	}
	doc, err := result.ReadFile(jsonPath)
	if err != nil || doc.Interrupted || len(report.EmptyVariants(doc)) == 0 {
		return false
	}
	for _, r := range doc.Runs {
		if r.Errors > 0 {
			return false
		}
	}
	return true
}
