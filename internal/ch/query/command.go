package query

import (
	"net"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// DefaultRate is the open-loop rate `ch query` runs at unless told
// otherwise: the seed's 100 queries per second.
const DefaultRate = 100

// The default experiment, when the user gives no extent (neither a
// duration, a count nor repetitions): DefaultRepeat × DefaultDuration at
// DefaultRate is 1,200 queries, enough for a p99.9, and an interval from
// three moments of the machine.
const (
	DefaultRepeat   = 3
	DefaultDuration = 4 * time.Second
)

// Command is `ch query`'s command line as the CLI binds it: the strings
// and lists as typed, which Resolve parses, and Config's own options bound
// directly. Its errors name the flags, since they are the user's to fix.
type Command struct {
	DSN, HTTPURL string
	// QueriesFile names a query file (ParseMix) that Resolve reads into
	// Config.Mix.
	QueriesFile string
	// PprofAddr is served by the CLI during the run, not by the family.
	PprofAddr string
	// Clients, Decodes and Protocols are comma lists; more than one value
	// of a knob needs Config.Matrix.
	Clients, Decodes, Protocols []string
	Config                      Config
	// Given says whether the user set a setting, by its field name (of
	// Command, Config, Worker or load.Config). Resolve's errors name
	// settings as {Field}, which the CLI spells as its flags.
	Given func(field string) bool
	// Getenv reads DBMETER_CLICKHOUSE_DSN and DBMETER_CLICKHOUSE_HTTP_URL.
	Getenv func(string) string
	// Lookup finds the client paths by name, "all" alone for every one;
	// required. The registry (clients.Resolve) imports this package, so it
	// is handed in rather than imported.
	Lookup func(names []string) ([]Named, error)
}

func (cmd Command) given(field string) bool { return cmd.Given != nil && cmd.Given(field) }

// Resolve returns the Config the command line asks for; Config.Validate
// checks the rest. raw is the shared run flags as typed and runFlags
// checks them into the load configuration. ch query reads raw its own way
// first: Workers alone is closed loop, and NoWarmup drops the warm-up;
// with a Rate, Workers also bounds the queries in flight unless
// MaxInFlight is given.
func (cmd Command) Resolve(raw *load.Config, runFlags func() (load.Config, error), repeat int, params map[string]string) (Config, error) {
	c := cmd.Config
	if cmd.given("Workers") && !cmd.given("Rate") {
		raw.Rate = 0
	}
	if c.NoWarmup {
		if cmd.given("Warmup") && raw.Warmup > 0 {
			return c, usage.Errorf("{NoWarmup} and {Warmup} %s contradict each other: give one", raw.Warmup)
		}
		raw.Warmup = 0
	}
	cfg, err := runFlags()
	if err != nil {
		return c, err
	}
	if cfg.Open() && cmd.given("Workers") && !cmd.given("MaxInFlight") {
		cfg.MaxInFlight = cfg.Workers
	}
	c.Load, c.Repeat, c.Params = cfg, repeat, params
	if c.DSN, err = ch.ResolveDSN(cmd.DSN, cmd.Getenv, "MaxOpen", "MaxIdle", "Lifetime"); err != nil {
		return c, err
	}
	if cmd.DSN == "" && c.Params != nil {
		c.Params["dsn"] = c.DSN.String() // from the environment: the result still names the server
	}
	if c.HTTPURL = cmd.HTTPURL; c.HTTPURL == "" {
		c.HTTPURL, c.HTTPDerived = DefaultHTTPURL(cmd.Getenv, c.DSN), true
	}
	if c.Mix, err = cmd.readMix(c); err != nil {
		return c, err
	}
	names := trim(cmd.Clients)
	c.Worker.Getenv = cmd.Getenv
	if c.Worker.Cmd != "" && !cmd.given("Clients") {
		names = []string{"worker"} // a worker command alone runs the user's worker
	}
	switch {
	case c.Worker.Cmd != "" && !slices.Contains(names, "worker"):
		return c, usage.Errorf("{Cmd} runs only as the client worker: add worker to {Clients}")
	case c.Worker.Cmd == "" && slices.Contains(names, "worker"):
		return c, usage.Errorf("the client worker needs {Cmd}: the command that starts your worker (docs/worker-protocol.md)")
	case c.Worker.Timeout < 0:
		return c, usage.Errorf("{Timeout} must not be negative, got %s", c.Worker.Timeout)
	case cmd.given("SelectRows") && !readsNumbers(c.Preset):
		return c, usage.Errorf("{SelectRows} sizes the numbers presets' reads: add {Preset} numbers or numbers-int")
	}
	c.Listed = (cmd.given("Clients") || c.Worker.Cmd != "") && !slices.Equal(names, []string{"all"})
	if c.Clients, err = cmd.Lookup(names); err != nil {
		return c, usage.Wrap(err)
	}
	if c.Known, err = cmd.Lookup([]string{"all"}); err != nil {
		return c, err
	}
	for _, d := range trim(cmd.Decodes) {
		c.Decodes = append(c.Decodes, Decode(d))
	}
	for _, p := range trim(cmd.Protocols) {
		c.Protocols = append(c.Protocols, Protocol(p))
	}
	return c, nil
}

// DefaultHTTPURL is the server's HTTP interface unless told otherwise:
// $DBMETER_CLICKHOUSE_HTTP_URL (dev-services sets it, as its ports are not
// the defaults), else port 8123 on the host of the native address.
func DefaultHTTPURL(getenv func(string) string, dsn ch.DSN) string {
	if getenv != nil {
		if u := getenv("DBMETER_CLICKHOUSE_HTTP_URL"); u != "" {
			return u
		}
	}
	host, _, _ := net.SplitHostPort(dsn.Addr)
	return "http://" + net.JoinHostPort(host, "8123")
}

// trim drops the blanks around and between a list's values.
func trim(list []string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// readMix reads QueriesFile, refusing it beside another source of queries.
func (cmd Command) readMix(c Config) ([]MixQuery, error) {
	if cmd.QueriesFile == "" {
		return nil, nil
	}
	switch {
	case c.Preset != "":
		return nil, usage.Errorf("{QueriesFile} and {Preset} contradict each other: give one")
	case c.SQL != "" || len(c.Args) > 0:
		return nil, usage.Errorf("{QueriesFile} and {SQL} contradict each other: give one (a query file's queries carry their values)")
	}
	f, err := os.Open(cmd.QueriesFile)
	if err != nil {
		return nil, usage.Errorf("{QueriesFile}: %v", err)
	}
	defer f.Close()
	mix, err := ParseMix(f)
	if err != nil {
		return nil, usage.Errorf("{QueriesFile} %s: %v", cmd.QueriesFile, err)
	}
	return mix, nil
}
