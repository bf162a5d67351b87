package report

import (
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

func TestLagNote(t *testing.T) {
	run := func(mode string, p99, lag int64) *result.Run {
		r := &result.Run{Mode: mode}
		r.Latency.P99, r.Lag.P99 = p99, lag
		return r
	}
	tests := []struct {
		name string
		r    *result.Run
		want string // "" for no warning
	}{
		{name: "closed loop has no schedule", r: run("closed", 22e6, 21e6)},
		{name: "a small lag", r: run("open", 22e6, 1e6)},
		{name: "at the share", r: run("open", 20e6, 5e6)},
		{name: "all lag", r: run("open", 22e6, 21.9e6), want: "schedule lag p99 21.9ms is 100% of the latency p99 22.0ms: dbmeter, not the target, made that much of the tail"},
		{name: "part of the tail", r: run("open", 123e6, 40e6), want: "is 33% of the latency p99 123ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lagNote(tt.r)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
