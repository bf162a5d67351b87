package query

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// command is ch query's command line with the CLI's defaults and the flags
// in given set by the user; its registry knows one client, "v1".
func command(given ...string) Command {
	return Command{
		DSN: "tcp://127.0.0.1:9000?username=u&password=pw", Clients: []string{"all"}, Decodes: []string{string(Row)},
		Given:  func(field string) bool { return slices.Contains(given, field) },
		Getenv: func(string) string { return "" },
		Lookup: func(names []string) ([]Named, error) {
			if slices.Equal(names, []string{"all"}) {
				names = []string{"v1"}
			}
			var out []Named
			for _, n := range names {
				if n != "v1" {
					return nil, fmt.Errorf("unknown client %q", n)
				}
				out = append(out, Named{Name: n})
			}
			return out, nil
		},
	}
}

// raw is the run flags as typed, with ch query's default rate; check
// stands for the CLI's check of them, which reads raw.
func raw() (*load.Config, func() (load.Config, error)) {
	cfg := load.DefaultConfig()
	cfg.Rate = DefaultRate
	return &cfg, func() (load.Config, error) { return cfg, nil }
}

func TestCommandResolveRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  func(c *Command, raw *load.Config)
		given []string
		want  string
	}{
		{"no-warmup and warmup", func(c *Command, raw *load.Config) { c.Config.NoWarmup, raw.Warmup = true, time.Second }, []string{"NoWarmup", "Warmup"},
			"{NoWarmup} and {Warmup} 1s contradict each other: give one"},
		{"no dsn", func(c *Command, _ *load.Config) { c.DSN = "" }, nil, "{DSN} is required: the ClickHouse server's native address"},
		{"bad dsn", func(c *Command, _ *load.Config) { c.DSN = "mysql://x" }, nil, "parse DSN"},
		{"unknown client", func(c *Command, _ *load.Config) { c.Clients = []string{"v1", "odbc"} }, []string{"Clients"}, `unknown client "odbc"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := command(tt.given...)
			r, check := raw()
			tt.edit(&cmd, r)
			_, err := cmd.Resolve(r, check, 1, nil)
			if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Resolve() = %v (usage error: %v), want a usage error containing %q", err, usage.Is(err), tt.want)
			}
		})
	}
}

func TestCommandResolve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  func(c *Command, raw *load.Config)
		given []string
		check func(c Config) bool
	}{
		{"defaults", func(*Command, *load.Config) {}, nil, func(c Config) bool {
			return c.Load.Rate == DefaultRate && c.Load.Warmup == load.DefaultWarmup && !c.Listed && len(c.Clients) == 1 &&
				c.HTTPURL == "http://127.0.0.1:8123" && c.DSN.Password == "pw" && c.Repeat == 2 && c.Params["x"] == "y"
		}},
		{"workers alone is closed loop", func(_ *Command, raw *load.Config) { raw.Workers = 8 }, []string{"Workers"}, func(c Config) bool {
			return c.Load.Rate == 0 && c.Load.Workers == 8
		}},
		{"workers bound the queries in flight", func(_ *Command, raw *load.Config) { raw.Workers = 8 }, []string{"Workers", "Rate"}, func(c Config) bool {
			return c.Load.Rate == DefaultRate && c.Load.MaxInFlight == 8
		}},
		{"unless max-in-flight is given", func(_ *Command, raw *load.Config) { raw.Workers, raw.MaxInFlight = 8, 50 }, []string{"Workers", "Rate", "MaxInFlight"}, func(c Config) bool {
			return c.Load.MaxInFlight == 50
		}},
		{"no warm-up", func(c *Command, _ *load.Config) { c.Config.NoWarmup = true }, []string{"NoWarmup"}, func(c Config) bool {
			return c.Load.Warmup == 0 && c.NoWarmup
		}},
		{"no warm-up with a zero one", func(c *Command, raw *load.Config) { c.Config.NoWarmup, raw.Warmup = true, 0 }, []string{"NoWarmup", "Warmup"}, func(c Config) bool {
			return c.Load.Warmup == 0
		}},
		{"listed", func(c *Command, _ *load.Config) { c.Clients = []string{" v1 ", ""} }, []string{"Clients"}, func(c Config) bool {
			return c.Listed && len(c.Clients) == 1 && c.Clients[0].Name == "v1"
		}},
		{"all given is not listed", func(*Command, *load.Config) {}, []string{"Clients"}, func(c Config) bool { return !c.Listed }},
		{"lists trimmed", func(c *Command, _ *load.Config) {
			c.Decodes, c.Protocols = []string{" row", "column "}, []string{"http", " "}
		}, nil, func(c Config) bool {
			return slices.Equal(c.Decodes, []Decode{Row, Column}) && slices.Equal(c.Protocols, []Protocol{HTTP})
		}},
		{"http url from the environment", func(c *Command, _ *load.Config) {
			c.Getenv = func(k string) string { return map[string]string{"DBMETER_CLICKHOUSE_HTTP_URL": "http://h:1"}[k] }
		}, nil, func(c Config) bool { return c.HTTPURL == "http://h:1" }},
		{"http url given", func(c *Command, _ *load.Config) { c.HTTPURL = "http://h:2" }, []string{"HTTPURL"}, func(c Config) bool { return c.HTTPURL == "http://h:2" }},
		{"dsn from the environment, recorded masked", func(c *Command, _ *load.Config) {
			c.DSN = ""
			c.Getenv = func(k string) string {
				return map[string]string{"DBMETER_CLICKHOUSE_DSN": "tcp://envhost:9000?username=u&password=envpw"}[k]
			}
		}, nil, func(c Config) bool {
			return c.DSN.Addr == "envhost:9000" && strings.Contains(c.Params["dsn"], "envhost:9000") && !strings.Contains(c.Params["dsn"], "envpw")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := command(tt.given...)
			r, check := raw()
			tt.edit(&cmd, r)
			c, err := cmd.Resolve(r, check, 2, map[string]string{"x": "y"})
			if err != nil || !tt.check(c) {
				t.Errorf("Resolve() = %+v, %v", c, err)
			}
		})
	}
}

// The run flags' own error comes back as it is.
func TestCommandResolveRunFlags(t *testing.T) {
	t.Parallel()
	bad := usage.Errorf("--repeat must be at least 1, got 0")
	r, _ := raw()
	if _, err := command().Resolve(r, func() (load.Config, error) { return load.Config{}, bad }, 0, nil); !errors.Is(err, bad) {
		t.Errorf("Resolve() = %v, want %v", err, bad)
	}
}
