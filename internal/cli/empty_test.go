package cli

import (
	"strings"
	"testing"
)

// A run in which no operation completed shows "no operation completed"
// with the reason instead of zeros, and the exit status says so. A null
// target whose every operation takes a second, in a 100 ms window with
// 50 ms of grace, completes none.
func TestNothingCompletedFails(t *testing.T) {
	t.Parallel()
	code, out, errs := run(t, "null", "--delay", "1s", "--duration", "100ms", "--grace", "50ms", "--warmup", "0")
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	for _, want := range []string{"no operation completed"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "null noop: no operation completed: 1 operations were still running") {
		t.Errorf("stderr does not say which run completed nothing and why:\n%s", errs)
	}
}
