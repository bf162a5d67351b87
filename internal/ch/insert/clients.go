package insert

import (
	"context"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/registry"
)

// A Client is one registered insert path.
type Client struct {
	// Open connects one inserter (one connection).
	Open func(ctx context.Context, o Options) (ch.Inserter, error)
	// MinServer is the oldest server the library supports.
	MinServer ch.Version
	// Streams says the path can stream several blocks through one INSERT
	// (--blocks-per-insert).
	Streams bool
	// NoDelay says the path sets TCP_NODELAY through its dialer or an
	// option (--tcp-nodelay).
	NoDelay bool
	// RoundTrip converts a block with the path's own build code, encodes
	// the result with the library's own encoder and decodes it back,
	// without a server. The conformance test checks that every path sends
	// exactly the block it was given.
	RoundTrip func(b *ch.Block) (*ch.Block, error)
	// DSN is what the path can take from the DSN; Prepare refuses the rest.
	DSN ch.Honours
	// External, when set, says the path runs outside dbmeter as worker
	// processes (external.go); its registry entry then names no module
	// and the run records the worker's language, runtime and library
	// instead.
	External *ch.Worker
}

// Oldest servers each library can talk to (see ch.MinModernServer).
var (
	minV2   = ch.MinModernServer
	minCHGo = ch.MinModernServer
	// clickhouse-go v1 speaks protocol revision 54213 (lib/data
	// ClickHouseRevision), that is server 1.1.54213 (2017) and later.
	minV1 = ch.Version{Major: 1, Minor: 1, Patch: 54213}
)

// clients is the registry: one line per path, sorted by name. An entry's
// first module is the one that does the work, which a run records as its
// "module" param.
func clients() registry.Registry[Client] {
	return registry.New("client", []registry.Entry[Client]{
		{Name: "ch-go", Modules: []string{modCHGo}, Value: Client{Open: openCHGo, MinServer: minCHGo, Streams: true, NoDelay: true, RoundTrip: roundTripCHGo, DSN: ch.HonoursCHGo}},
		{Name: "clickhouse-go-column", Modules: []string{modV2}, Value: Client{Open: openV2Column, MinServer: minV2, Streams: true, NoDelay: true, RoundTrip: roundTripV2Column, DSN: ch.HonoursV2}},
		{Name: "clickhouse-go-row", Modules: []string{modV2}, Value: Client{Open: openV2Row, MinServer: minV2, Streams: true, NoDelay: true, RoundTrip: roundTripV2Row, DSN: ch.HonoursV2}},
		{Name: "clickhouse-go-v1", Modules: []string{modV1}, Value: Client{Open: openV1, MinServer: minV1, NoDelay: true, RoundTrip: roundTripV1Row, DSN: ch.HonoursV1}},
		{Name: "clickhouse-go-v1-column", Modules: []string{modV1}, Value: Client{Open: openV1Column, MinServer: minV1, Streams: true, NoDelay: true, RoundTrip: roundTripV1Column, DSN: ch.HonoursV1}},
		{Name: "database-sql", Modules: []string{modV2}, Value: Client{Open: openSQL, MinServer: minV2, NoDelay: true, RoundTrip: roundTripV2Row, DSN: ch.HonoursV2}},
		{Name: "gorm", Modules: []string{modGorm, "gorm.io/gorm", modV2}, Value: Client{Open: openGorm, MinServer: minV2, NoDelay: true, RoundTrip: roundTripGorm, DSN: ch.HonoursV2}},
		{Name: "php-seasclick", Value: Client{Open: openExternal, DSN: ch.SeasClick.Honours(), External: ch.SeasClick.With("--api=insert")}},
		{Name: "php-seasclick-block", Value: Client{Open: openExternal, Streams: true, DSN: ch.SeasClick.Honours(), External: ch.SeasClick.With("--api=block")}},
		{Name: "python-clickhouse-driver", Value: Client{Open: openExternal, NoDelay: true, DSN: ch.ClickHouseDriver.Honours(), External: ch.ClickHouseDriver.With()}},
		{Name: "sqlx", Modules: []string{modSQLX, modV2}, Value: Client{Open: openSQLX, MinServer: minV2, NoDelay: true, RoundTrip: roundTripV2Row, DSN: ch.HonoursV2}},
		{Name: "sqlx-v1", Modules: []string{modSQLX, modV1}, Value: Client{Open: openSQLXV1, MinServer: minV1, NoDelay: true, RoundTrip: roundTripV1Row, DSN: ch.HonoursV1}},
		{Name: "worker", Value: Client{Open: openExternal, Streams: true, NoDelay: true, DSN: ch.HonoursWorker, External: &ch.Worker{}}},
	})
}

// Module paths, as `dbmeter version` and a run's "module" param name them.
const (
	modV2   = "github.com/ClickHouse/clickhouse-go/v2"
	modV1   = "github.com/ClickHouse/clickhouse-go"
	modCHGo = "github.com/ClickHouse/ch-go"
	modSQLX = "github.com/jmoiron/sqlx"
	modGorm = "gorm.io/driver/clickhouse"
)

// Names lists the registered paths, sorted.
func Names() []string { return clients().Names() }

// Modules lists the Go modules of the registered paths.
func Modules() []string { return clients().Modules() }

// Lookup returns the named path, or an error suggesting the closest one and
// listing them all.
func Lookup(name string) (Client, error) { return clients().Lookup(name) }

// module is the Go module that does the work of the named path, "" for one
// that runs outside dbmeter.
func module(name string) string {
	for _, e := range clients().Entries() {
		if e.Name == name && len(e.Modules) > 0 {
			return e.Modules[0]
		}
	}
	return ""
}
