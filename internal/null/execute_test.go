package null_test

import (
	"context"
	"io"
	"testing"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/null"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/sink"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Execute runs the null target into the output it opens, each repetition
// a run of its own, and refuses options that contradict each other as the
// user's mistake before opening any output.
func TestExecute(t *testing.T) {
	t.Parallel()
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Duration, cfg.Count, cfg.Warmup = 1, 0, 200, 0
	tests := []struct {
		name     string
		target   null.Config
		wantRuns int // 0: refused
	}{
		{"two repetitions", null.Config{}, 2},
		{"a stall without its period", null.Config{Stall: 1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out *sink.Sink
			open := func(diskPath string, secrets ...string) (plan.Output, error) {
				s, err := sink.Open(sink.IO{Stdout: io.Discard, Stderr: io.Discard}, "null", sink.Options{Quiet: true, NoDiskProbe: true}, diskPath, secrets...)
				out = s
				return s, err
			}
			err := null.Execute(context.Background(), null.Options{Target: tt.target, Load: cfg, Repeat: 2, Params: map[string]string{}}, open)
			if tt.wantRuns == 0 {
				if err == nil || !usage.Is(err) || out != nil {
					t.Errorf("Execute: %v, outputs opened: %v; want a usage error and none", err, out != nil)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out == nil || len(out.Doc().Runs) != tt.wantRuns {
				t.Fatalf("Execute wrote %v; want %d runs", out, tt.wantRuns)
			}
		})
	}
}
