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

// A shard runs its part of the clients, numbered on from the lower
// shards' (pgbench's client ids), each client with the -t it has in one
// process, a fixed pool under -R too, and its part of the rate.
func TestCommandShards(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                    string
		clients, perClient      int
		rate                    float64
		shard                   string
		wantClients, wantOffset int
		wantCount               int64
		wantRate                float64
	}{
		{"first of two", 3, 4, 0, "0/2", 2, 0, 8, 0},
		{"second of two", 3, 4, 0, "1/2", 1, 2, 4, 0},
		{"last of three, -R", 5, 2, 90, "2/3", 1, 4, 2, 30},
		{"unsharded", 3, 4, 0, "", 3, 0, 12, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Command{Clients: tt.clients, Jobs: 1, PerClient: tt.perClient, Rate: tt.rate, Shard: tt.shard, MaxTries: 1,
				ConnectTimeout: time.Second, Protocol: "simple", SeedSpec: "1", Drivers: []string{"pgx"}, DSNs: []string{"postgres://u@h:5432/db"}}
			p, err := c.Prepare(nil)
			if err != nil {
				t.Fatal(err)
			}
			pt := p.points[0]
			if pt.clients != tt.wantClients || pt.clientOffset != tt.wantOffset || pt.totalClients != tt.clients {
				t.Errorf("clients %d from id %d of %d; want %d from %d of %d", pt.clients, pt.clientOffset, pt.totalClients, tt.wantClients, tt.wantOffset, tt.clients)
			}
			if pt.load.Workers != tt.wantClients || pt.load.Count != tt.wantCount || pt.load.Rate != tt.wantRate {
				t.Errorf("load: %d workers, count %d, rate %g; want %d, %d, %g", pt.load.Workers, pt.load.Count, pt.load.Rate, tt.wantClients, tt.wantCount, tt.wantRate)
			}
			if tt.rate > 0 && pt.load.MaxInFlight != tt.wantClients {
				t.Errorf("-R: %d in flight, want the shard's %d clients", pt.load.MaxInFlight, tt.wantClients)
			}
		})
	}
}
