package query

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Two stand-in client descriptions: the tests exercise the plan's
// expansion and gating, never a connection.
var (
	native = Client{Protocols: []Protocol{Native}, Prepare: true, Ignores: func(Pool) []string { return nil }}
	web    = Client{Protocols: []Protocol{HTTP}, Ignores: func(Pool) []string { return nil }}
	modern = Client{Protocols: []Protocol{Native, HTTP}, Prepare: true, MinServer: ch.MinModernServer, Ignores: func(Pool) []string { return nil }}
)

func baseConfig() Config {
	return Config{
		DSN: ch.DSN{Addr: "127.0.0.1:9000"}, HTTPURL: "http://127.0.0.1:8123",
		Clients: []Named{{"v1", native}, {"http", web}},
		SQL:     "SELECT 1", Data: DefaultDataset(), Load: load.DefaultConfig(),
	}
}

func TestConfigCombos(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edit    func(c *Config)
		combos  int
		skipped []string // one line each, in order
		err     string
	}{
		{"one setting per client", func(*Config) {}, 2, nil, ""},
		{"two values need matrix", func(c *Config) { c.Decodes = []Decode{Row, Column} }, 0, nil, "add {Matrix}"},
		{"matrix multiplies", func(c *Config) {
			c.Matrix, c.Decodes, c.MaxIdle = true, []Decode{Row, Column}, []int{0, 2, 10}
		}, 12, nil, ""},
		{"prepared skips the client without binding", func(c *Config) { c.Matrix, c.Prepared = true, []bool{false, true} }, 3,
			[]string{"http with protocol http, prepared true: http has no prepare or bind API"}, ""},
		{"one line per reason, naming what it covers", func(c *Config) {
			c.Matrix, c.Prepared, c.Decodes = true, []bool{false, true}, []Decode{Row, Column}
		}, 6, []string{"http with protocol http, prepared true, decode row and column (2 combinations): http has no prepare or bind API"}, ""},
		{"prepared without matrix is an error", func(c *Config) { c.Prepared = []bool{true} }, 0, nil, "no prepare or bind API"},
		{"a protocol a client lacks", func(c *Config) { c.Clients = c.Clients[:1]; c.Protocols = []Protocol{HTTP} }, 0, nil, "speaks native, not http"},
		{"bad decode", func(c *Config) { c.Decodes = []Decode{"diagonal"} }, 0, nil, "want row or column"},
		{"negative pool", func(c *Config) { c.MaxOpen = []int{-1} }, 0, nil, "must not be negative"},
		{"no clients", func(c *Config) { c.Clients = nil }, 0, nil, "{Clients} is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := baseConfig()
			tc.edit(&c)
			combos, skipped, err := c.Combos()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("Combos() error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || len(combos) != tc.combos || len(skipped) != len(tc.skipped) {
				t.Fatalf("Combos() = %d combos, skipped %q, %v; want %d, %q", len(combos), skipped, err, tc.combos, tc.skipped)
			}
			for i, want := range tc.skipped {
				if !strings.HasPrefix(skipped[i], want) {
					t.Errorf("skip line %d = %q, want it to begin %q", i, skipped[i], want)
				}
			}
			for _, cb := range combos {
				if !cb.Client.Speaks(cb.Opts.Protocol) || cb.Opts.DSN.Addr == "" {
					t.Errorf("combo %s has protocol %s and address %q", cb.Name, cb.Opts.Protocol, cb.Opts.DSN.Addr)
				}
			}
		})
	}
}

func TestConfigValidateSpec(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c *Config)
		err  string
	}{
		{"query", func(*Config) {}, ""},
		{"preset", func(c *Config) { c.SQL, c.Preset = "", "count" }, ""},
		{"both", func(c *Config) { c.Preset = "count" }, "contradict"},
		{"neither", func(c *Config) { c.SQL = "" }, "give {Preset}"},
		{"unknown preset", func(c *Config) { c.SQL, c.Preset = "", "nope" }, `unknown preset "nope"`},
		{"args with preset", func(c *Config) { c.SQL, c.Preset, c.Args = "", "count", []string{"1"} }, "{Args} goes with {SQL}"},
		{"too few args", func(c *Config) { c.SQL, c.Args = "SELECT ? + ?", []string{"1"} }, "2 ? placeholders but 1"},
		{"bad data set", func(c *Config) { c.SQL, c.Preset, c.Data.Users = "", "count", 0 }, "at least one row"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := baseConfig()
			tc.edit(&c)
			err := c.Validate()
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("Validate() = %v, want %q", err, tc.err)
			}
		})
	}
}

// Clients too new for the server: listed, they are refused; with all,
// they are left out and said; with none left, the plan is refused.
func TestPrepareGate(t *testing.T) {
	old := ch.Version{Major: 18, Minor: 16, Patch: 1}
	for _, tc := range []struct {
		name    string
		clients []Named
		listed  bool
		steps   int
		note    string
		err     string
	}{
		{"all leaves the modern one out", []Named{{"v2", modern}, {"v1", native}}, false, 1, "skipping v2: it needs ClickHouse 21.8.0 or newer", ""},
		{"one line for the clients one reason leaves out", []Named{{"v2", modern}, {"v2-sql", modern}, {"v1", native}}, false, 1,
			"skipping v2, v2-sql: they need ClickHouse 21.8.0 or newer; the server is 18.16.1", ""},
		{"listed is refused, suggesting every path that can", []Named{{"v2", modern}, {"v1", native}}, true, 0, "",
			"client v2 needs ClickHouse 21.8.0 or newer, but the server is 18.16.1: pick a client that supports it (v1, v1-too) or point {DSN} at a newer server"},
		{"nothing left", []Named{{"v2", modern}}, false, 0, "", "no client in {Clients} can talk to ClickHouse 18.16.1: use v1 or v1-too"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := baseConfig()
			c.Clients, c.Listed = tc.clients, tc.listed
			c.Known = []Named{{"v2", modern}, {"v1", native}, {"v1-too", native}}
			p, err := Prepare(context.Background(), "ch", c, old)
			if tc.err != "" {
				var ge *GateError
				if !errors.As(err, &ge) || !usage.Is(err) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("Prepare error %v, want a GateError with %q, as a usage error", err, tc.err)
				}
				return
			}
			if err != nil || len(p.Plan.Steps) != tc.steps || !strings.Contains(strings.Join(p.Notes, "|"), tc.note) {
				t.Fatalf("Prepare = %+v, %v; want %d steps and a note %q", p, err, tc.steps, tc.note)
			}
			if p.Plan.Family != "ch" || p.Plan.Steps[0].Workload != "query" {
				t.Errorf("plan family %q, workload %q", p.Plan.Family, p.Plan.Steps[0].Workload)
			}
		})
	}
}

// TestIgnoredKnobsSaidInWords: a client that cannot honour a pool knob
// says so in the run's warnings in words, since the warning is kept in
// the result and read later without the command that could spell a flag.
func TestIgnoredKnobsSaidInWords(t *testing.T) {
	ignoresIdle := Client{Ignores: func(Pool) []string { return []string{KnobMaxIdle, KnobIdleTimeout} }}
	for _, tc := range []struct {
		name   string
		client Client
		want   string
	}{
		{"honours every knob", native, ""},
		{"ignores two", ignoresIdle, "v2 cannot honour the pool's most idle connections, idle timeout: those settings had no effect"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := warnings(result.Run{}, &Workload{}, Combo{Name: "v2", Client: tc.client}, load.DefaultConfig())
			if tc.want == "" && len(got) > 0 || tc.want != "" && (len(got) != 1 || got[0] != tc.want) {
				t.Errorf("warnings = %q, want %q", got, tc.want)
			}
		})
	}
}
