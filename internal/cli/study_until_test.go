package cli

import (
	"strings"
	"testing"
)

// TestStudyUntilDecidedBudget: a budget that is not a duration is a usage
// error, one line, before any step runs.
func TestStudyUntilDecidedBudget(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"--until-decided=banana", "--until-decided=20"} {
		code, stdout, stderr := run(t, "study", "run", "s4", arg)
		if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "until-decided") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line naming the flag", arg, code, stdout, stderr)
		}
	}
}
