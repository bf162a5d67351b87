package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// A run in which no operation completed shows "no operation completed"
// with the reason instead of zeros, and the exit status says so, as does
// the document (empty), which is how study run knows. A null target whose
// every operation takes a second, in a 100 ms window with 50 ms of grace,
// completes none.
func TestNothingCompletedFails(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "r.json")
	code, out, errs := run(t, "null", "--delay", "1s", "--duration", "100ms", "--grace", "50ms", "--warmup", "0", "--json", path)
	doc, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Empty) != 1 || !strings.HasPrefix(doc.Empty[0], "null noop: no operation completed") {
		t.Errorf("the document's empty variants = %q, want null noop's", doc.Empty)
	}
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

// cznic/kv with fsync on commits its writes in a group once a second, so a
// del cell of 100 ms completes what its window started only when that
// commit comes, about a second later: each repetition completes one delete
// per worker, finishing after the window (the engine does not stop for a
// cancelled context, so the grace cannot cut it). The cell is not empty,
// but its throughput and percentiles rest on a handful of operations:
// the table marks them, with the note that says why.
func TestKVGroupCommitCellMarked(t *testing.T) {
	servertest.E2E(t, "a second per cznic/kv fsync commit")
	t.Parallel()
	code, out, errs := run(t, "kv", "--engines", "cznic/kv", "--fsync", "true", "--ops", "del", "--repeat", "2", "--dir", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var tput, p99 string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 2 && f[0] == "del" && f[1] == "p99":
			p99 = f[2]
		case len(f) > 1 && f[0] == "del" && f[1][0] >= '0' && f[1][0] <= '9': // the throughput row
			tput = strings.Join(f[1:], " ")
		}
	}
	if !strings.HasSuffix(tput, "†") || !strings.HasSuffix(p99, "†") {
		t.Errorf("del throughput %q and p99 %q, want both marked †:\n%s", tput, p99, out)
	}
	if !strings.Contains(out, "†: from too few operations") {
		t.Errorf("no note explains †:\n%s", out)
	}
}
