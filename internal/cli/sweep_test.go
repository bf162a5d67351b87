package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A list of --workers or --rate is a sweep only where a command sweeps
// them; elsewhere it is one line and exit 2.
func TestSweepListsRefusedWhereNotSwept(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"null", "--workers", "1,2"},
		{"null", "--rate", "100,200"},
	} {
		code, _, errs := run(t, args...)
		if code != exitUsage || !strings.Contains(errs, "take one value for this command") {
			t.Errorf("%v: exit %d, %q; want 2 and one line", args, code, errs)
		}
	}
}

// `ch query --rate 50,100 --repeat 2` runs each rate as a variant, the
// repetitions interleaved (50 then 100, then both again), each run
// recording its own rate, and one table shows both.
func TestCHQueryRateSweep(t *testing.T) {
	dsn := legacyDSN(t)
	path := filepath.Join(t.TempDir(), "r.json")
	code, out, errs := run(t, "ch", "query", "--dsn", dsn, "--clients", "clickhouse-go-v1", "--query", "SELECT 1",
		"--rate", "50,100", "--duration", "1s", "--warmup", "0", "--repeat", "2", "--no-server-stats", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	doc, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range doc.Runs {
		order = append(order, fmt.Sprintf("%s/%g#%d", r.Params["rate"], r.Rate, r.Repeat))
	}
	if got := strings.Join(order, " "); got != "50/50#1 100/100#1 50/50#2 100/100#2" {
		t.Errorf("runs %s, want 50/50#1 100/100#1 50/50#2 100/100#2", got)
	}
	if n := strings.Count(out, "ch query: latency at the requested rate"); n != 1 || !strings.Contains(out, "2 repetitions pooled") {
		t.Errorf("want one table of the two rates, pooled:\n%s", out)
	}
}
