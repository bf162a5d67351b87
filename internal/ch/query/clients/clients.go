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

// registry holds every client path. Nothing writes to it after start-up.
var registry = map[string]query.Client{
	"clickhouse-go":            {Open: chv2.OpenNative, MinServer: modern, Protocols: []query.Protocol{query.Native, query.HTTP}, Prepare: true, Ignores: chv2.Ignores},
	"clickhouse-go-sql":        {Open: chv2.OpenSQL, MinServer: modern, Protocols: []query.Protocol{query.Native, query.HTTP}, Prepare: true, Ignores: noKnobsIgnored},
	"clickhouse-go-v1":         {Open: openV1, Protocols: []query.Protocol{query.Native}, Prepare: true, Ignores: noKnobsIgnored},
	"ch-go":                    {Open: openCHGo, MinServer: modern, Protocols: []query.Protocol{query.Native}, Columnar: true, Ignores: noKnobsIgnored},
	"http":                     {Open: openHTTP, Protocols: []query.Protocol{query.HTTP}, Ignores: httpIgnores},
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
