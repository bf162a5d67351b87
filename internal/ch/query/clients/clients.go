package clients

import (
	"fmt"
	"slices"
	"sort"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/query/chv2"
)

// modern is the oldest server clickhouse-go v2 and ch-go may talk to.
var modern = ch.MinModernServer

// v2HTTP is the oldest server v2 may talk to over HTTP: v2 sends
// client_protocol_version with every HTTP query, which servers before 23.2
// (ClickHouse PR #46360) refuse as an unknown setting.
var v2HTTP = ch.Version{Major: 23, Minor: 2}

// registry holds every client path. Nothing writes to it after start-up.
var registry = map[string]query.Client{
	"clickhouse-go":            {Open: chv2.OpenNative, MinServer: modern, Protocols: []query.Protocol{query.Native, query.HTTP}, Prepare: true, Ignores: chv2.Ignores, MinHTTPServer: v2HTTP, DSN: ch.HonoursV2},
	"clickhouse-go-sql":        {Open: chv2.OpenSQL, MinServer: modern, Protocols: []query.Protocol{query.Native, query.HTTP}, Prepare: true, Ignores: noKnobsIgnored, MinHTTPServer: v2HTTP, DSN: ch.HonoursV2},
	"clickhouse-go-v1":         {Open: openV1, Protocols: []query.Protocol{query.Native}, Prepare: true, Ignores: noKnobsIgnored, DSN: ch.HonoursV1},
	"ch-go":                    {Open: openCHGo, MinServer: modern, Protocols: []query.Protocol{query.Native}, Prepare: true, Columnar: true, Ignores: noKnobsIgnored, DSN: ch.HonoursCHGo},
	"http":                     {Open: openHTTP, Protocols: []query.Protocol{query.HTTP}, Ignores: httpIgnores, DSN: ch.HonoursHTTP},
	"php-seasclick":            external("php-seasclick", ch.SeasClick.With()),
	"python-clickhouse-driver": external("python-clickhouse-driver", ch.ClickHouseDriver.With()),
	"worker":                   external("worker", &ch.Worker{}),
}

func noKnobsIgnored(query.Pool) []string { return nil }

// Lookup returns the named client path.
func Lookup(name string) (query.Client, error) {
	if c, ok := registry[name]; ok {
		return c, nil
	}
	return query.Client{}, fmt.Errorf("unknown client %q: pick from %v", name, Names())
}

// Names lists the client paths in this build, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Resolve returns the named client paths in order; "all" alone is every
// path in this build. It is query.Command's Lookup.
func Resolve(names []string) ([]query.Named, error) {
	if slices.Equal(names, []string{"all"}) {
		names = nil
		for _, n := range Names() {
			if !registry[n].External { // they need their language installed: only by name
				names = append(names, n)
			}
		}
	}
	out := make([]query.Named, 0, len(names))
	for _, n := range names {
		c, err := Lookup(n)
		if err != nil {
			return nil, err
		}
		out = append(out, query.Named{Name: n, Client: c})
	}
	return out, nil
}
