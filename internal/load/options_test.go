package load_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// TestOptionsResolve: the flags' contradictions are usage errors naming
// the flags; accepted options give the Config the run uses.
func TestOptionsResolve(t *testing.T) {
	now := time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		given  []string
		mut    func(*load.Options)
		search bool
		want   string // error text; "" for success
		check  func(load.Config) bool
	}{
		{"defaults", nil, nil, false, "", func(c load.Config) bool { return !c.Open() && c.Duration > 0 }},
		{"count alone replaces the duration", []string{"Count"}, func(o *load.Options) { o.Config.Count = 10 }, false, "",
			func(c load.Config) bool { return c.Duration == 0 && c.Count == 10 }},
		{"count and duration", []string{"Count", "Duration"}, func(o *load.Options) { o.Config.Count = 10 }, false, "{Count} and {Duration} contradict", nil},
		{"negative duration", []string{"Duration"}, func(o *load.Options) { o.Config.Duration = -time.Second }, false, "{Duration} must be positive", nil},
		{"zero rate", []string{"Rate"}, func(o *load.Options) { o.Config.Rate = 0 }, false, "{Rate} must be positive", nil},
		{"arrival in closed loop", []string{"Arrival"}, func(o *load.Options) { o.Arrival = "poisson" }, false, "{Arrival} needs {Rate}", nil},
		{"arrival under a search", []string{"Arrival"}, func(o *load.Options) { o.Arrival = "poisson" }, true, "", nil},
		{"unknown arrival", nil, func(o *load.Options) { o.Arrival = "bursty" }, false, `unknown arrival process "bursty"`, nil},
		{"max in flight in closed loop", []string{"MaxInFlight"}, nil, false, "{MaxInFlight} needs {Rate}", nil},
		{"no repetition", nil, func(o *load.Options) { o.Repeat = 0 }, false, "{Repeat} must be at least 1", nil},
		{"no worker", nil, func(o *load.Options) { o.Config.Workers = 0 }, false, "{Workers} must be at least 1, got 0", nil},
		{"negative warm-up", nil, func(o *load.Options) { o.Config.Warmup = -time.Second }, false, "{Warmup} must not be negative", nil},
		{"fewer operations than workers", []string{"Count"}, func(o *load.Options) { o.Config.Count, o.Config.Workers = 2, 4 }, false,
			"{Count} 2 must be at least {Workers} 4", nil},
		{"bad shard", nil, func(o *load.Options) { o.Shard = "4/4" }, false, "{Shard} \"4/4\"", nil},
		{"shard divides the rate", nil, func(o *load.Options) { o.Shard, o.Config.Rate = "1/4", 100 }, false, "",
			func(c load.Config) bool { return c.Rate == 25 && c.Shard.Index == 1 && c.Shard.Count == 4 }},
		{"start in the past", nil, func(o *load.Options) { o.StartAt = "2026-11-23T14:00:00Z" }, false, "{StartAt} 2026-11-23T14:00:00Z is in the past", nil},
		{"start from now", nil, func(o *load.Options) { o.StartAt = "+30s" }, false, "",
			func(c load.Config) bool { return c.StartAt.Equal(now.Add(30 * time.Second)) }},
		{"open loop lets every worker be in flight", []string{"Rate"}, func(o *load.Options) { o.Config.Rate, o.Config.Workers, o.Config.MaxInFlight = 10, 64, 4 }, false, "",
			func(c load.Config) bool { return c.MaxInFlight == 64 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := load.Options{Config: load.DefaultConfig(), Arrival: "constant", Repeat: 1}
			if tt.mut != nil {
				tt.mut(&o)
			}
			cfg, err := o.Resolve(func(f string) bool { return slices.Contains(tt.given, f) }, tt.search, now)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err)):
				t.Fatalf("error %v, want a usage error containing %q", err, tt.want)
			case tt.check != nil && !tt.check(cfg):
				t.Errorf("config %+v is not what the options ask for", cfg)
			}
		})
	}
}
