package pg

import (
	"strings"
	"testing"
	"time"
)

func TestCommandValidate(t *testing.T) {
	t.Parallel()
	given := func(names ...string) func(string) bool {
		return func(n string) bool {
			for _, g := range names {
				if g == n {
					return true
				}
			}
			return false
		}
	}
	ok := Command{Clients: 4, Jobs: 2, PerClient: 10, MaxTries: 1, ConnectTimeout: time.Second}
	tests := []struct {
		name string
		edit func(o *Command)
		want string // "" means valid
	}{
		{"defaults", func(o *Command) {}, ""},
		{"-j above -c", func(o *Command) { o.Jobs = 8 }, "{Jobs} (8) must not exceed {Clients} (4)"},
		{"-T and -t", func(o *Command) { o.Seconds = 1; o.Given = given("Seconds", "PerClient") }, "contradict"},
		{"unlimited tries counted", func(o *Command) { o.MaxTries = 0 }, "{LatencyLimit} or a duration"},
		{"unlimited tries timed", func(o *Command) { o.MaxTries, o.Seconds, o.Given = 0, 5, given("Seconds") }, ""},
		{"sampling without -l", func(o *Command) { o.SamplingRate, o.Given = 0.5, given("SamplingRate") }, "need {Log}"},
		{"sampling and aggregation", func(o *Command) {
			o.Log, o.SamplingRate, o.AggInterval, o.Given = true, 0.5, 1, given("SamplingRate", "AggInterval")
		}, "cannot be used at the same time"},
		{"duration not a multiple", func(o *Command) {
			o.Log, o.AggInterval, o.Seconds, o.Given = true, 3, 10, given("Seconds", "AggInterval")
		}, "must be a multiple of aggregation interval"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := ok
			tt.edit(&o)
			err := o.Validate()
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestCommandLoadConfig(t *testing.T) {
	t.Parallel()
	cfg := (&Command{Clients: 3, Jobs: 1, PerClient: 7}).loadConfig()
	if cfg.Count != 21 || cfg.Duration != 0 || cfg.Workers != 3 || cfg.Rate != 0 {
		t.Errorf("-c 3 -t 7: count %d duration %s workers %d rate %g; want 21 transactions, closed loop", cfg.Count, cfg.Duration, cfg.Workers, cfg.Rate)
	}
	cfg = (&Command{Clients: 2, Jobs: 1, Seconds: 5, Rate: 100, LatencyLimit: 20 * time.Millisecond, Given: func(n string) bool { return n == "Seconds" }}).loadConfig()
	if cfg.Duration != 5*time.Second || cfg.Count != 0 || cfg.Rate != 100 || cfg.SkipLate != 20*time.Millisecond {
		t.Errorf("-T 5 -R 100 -L 20: duration %s count %d rate %g skip %s", cfg.Duration, cfg.Count, cfg.Rate, cfg.SkipLate)
	}
}
