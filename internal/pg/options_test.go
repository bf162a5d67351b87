package pg

import (
	"strings"
	"testing"
	"time"
)

func TestOptionsValidate(t *testing.T) {
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
	ok := Options{Clients: 4, Jobs: 2, PerClient: 10, MaxTries: 1}
	tests := []struct {
		name string
		edit func(o *Options)
		want string // "" means valid
	}{
		{"defaults", func(o *Options) {}, ""},
		{"-j above -c", func(o *Options) { o.Jobs = 8 }, "-j (8) must not exceed -c (4)"},
		{"-T and -t", func(o *Options) { o.Seconds = 1; o.Given = given("time", "transactions") }, "contradict"},
		{"unlimited tries counted", func(o *Options) { o.MaxTries = 0 }, "--latency-limit or a duration"},
		{"unlimited tries timed", func(o *Options) { o.MaxTries, o.Seconds, o.Given = 0, 5, given("time") }, ""},
		{"sampling without -l", func(o *Options) { o.SamplingRate, o.Given = 0.5, given("sampling-rate") }, "need -l"},
		{"sampling and aggregation", func(o *Options) {
			o.Log, o.SamplingRate, o.AggInterval, o.Given = true, 0.5, 1, given("sampling-rate", "aggregate-interval")
		}, "cannot be used at the same time"},
		{"duration not a multiple", func(o *Options) {
			o.Log, o.AggInterval, o.Seconds, o.Given = true, 3, 10, given("time", "aggregate-interval")
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

func TestOptionsLoadConfig(t *testing.T) {
	t.Parallel()
	cfg := Options{Clients: 3, Jobs: 1, PerClient: 7}.LoadConfig()
	if cfg.Count != 21 || cfg.Duration != 0 || cfg.Workers != 3 || cfg.Rate != 0 {
		t.Errorf("-c 3 -t 7: count %d duration %s workers %d rate %g; want 21 transactions, closed loop", cfg.Count, cfg.Duration, cfg.Workers, cfg.Rate)
	}
	cfg = Options{Clients: 2, Jobs: 1, Seconds: 5, Rate: 100, LatencyMS: 20, Given: func(n string) bool { return n == "time" }}.LoadConfig()
	if cfg.Duration != 5*time.Second || cfg.Count != 0 || cfg.Rate != 100 || cfg.SkipLate != 20*time.Millisecond {
		t.Errorf("-T 5 -R 100 -L 20: duration %s count %d rate %g skip %s", cfg.Duration, cfg.Count, cfg.Rate, cfg.SkipLate)
	}
}
