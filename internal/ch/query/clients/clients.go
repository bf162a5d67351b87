package clients

import (
	"slices"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/query/chv2"
	reg "github.com/dbmeter/dbmeter/internal/registry"
)

// modern is the oldest server clickhouse-go v2 and ch-go may talk to.
var modern = ch.MinModernServer

// v2HTTP is the oldest server v2 may talk to over HTTP: v2 sends
// client_protocol_version with every HTTP query, which servers before 23.2
// (ClickHouse PR #46360) refuse as an unknown setting.
var v2HTTP = ch.Version{Major: 23, Minor: 2}

// registry is every client path, one line each, sorted by name.
func registry() reg.Registry[query.Client] {
	const v1, v2, chgo = "github.com/ClickHouse/clickhouse-go", "github.com/ClickHouse/clickhouse-go/v2", "github.com/ClickHouse/ch-go"
	return reg.New("client", []reg.Entry[query.Client]{
		{Name: "ch-go", Modules: []string{chgo}, Value: query.Client{Open: openCHGo, MinServer: modern, Protocols: []query.Protocol{query.Native}, Prepare: true, Columnar: true, Ignores: noKnobsIgnored, DSN: ch.HonoursCHGo}},
		{Name: "clickhouse-go", Modules: []string{v2}, Value: query.Client{Open: chv2.OpenNative, MinServer: modern, Protocols: []query.Protocol{query.Native, query.HTTP}, Prepare: true, Ignores: chv2.Ignores, MinHTTPServer: v2HTTP, DSN: ch.HonoursV2}},
		{Name: "clickhouse-go-sql", Modules: []string{v2}, Value: query.Client{Open: chv2.OpenSQL, MinServer: modern, Protocols: []query.Protocol{query.Native, query.HTTP}, Prepare: true, Ignores: noKnobsIgnored, MinHTTPServer: v2HTTP, DSN: ch.HonoursV2}},
		{Name: "clickhouse-go-v1", Modules: []string{v1}, Value: query.Client{Open: openV1, Protocols: []query.Protocol{query.Native}, Prepare: true, Ignores: noKnobsIgnored, DSN: ch.HonoursV1}},
		{Name: "http", Value: query.Client{Open: openHTTP, Protocols: []query.Protocol{query.HTTP}, Ignores: httpIgnores, DSN: ch.HonoursHTTP}},
		{Name: "php-seasclick", Value: external("php-seasclick", ch.SeasClick.With())},
		{Name: "python-clickhouse-driver", Value: external("python-clickhouse-driver", ch.ClickHouseDriver.With())},
		{Name: "worker", Value: external("worker", &ch.Worker{})},
	})
}

func noKnobsIgnored(query.Pool) []string { return nil }

// Lookup returns the named client path, or an error suggesting the closest
// one and listing them all.
func Lookup(name string) (query.Client, error) { return registry().Lookup(name) }

// Names lists the client paths in this build, sorted.
func Names() []string { return registry().Names() }

// Modules lists the Go modules of the client paths in this build.
func Modules() []string { return registry().Modules() }

// Resolve returns the named client paths in order; "all" alone is every
// path in this build. It is query.Command's Lookup.
func Resolve(names []string) ([]query.Named, error) {
	if slices.Equal(names, []string{"all"}) {
		names = nil
		for _, e := range registry().Entries() {
			if !e.Value.External { // they need their language installed: only by name
				names = append(names, e.Name)
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
