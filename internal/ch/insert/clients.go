package insert

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/dbmeter/dbmeter/internal/ch"
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
	// Module is the Go module that does the work.
	Module string
	// RoundTrip converts a block with the path's own build code, encodes
	// the result with the library's own encoder and decodes it back,
	// without a server. The conformance test checks that every path sends
	// exactly the block it was given.
	RoundTrip func(b *ch.Block) (*ch.Block, error)
	// DSN is what the path can take from the DSN; Prepare refuses the rest.
	DSN ch.Honours
	// External, when set, says the path runs outside dbmeter as worker
	// processes (external.go); Module is then empty and the run records
	// the worker's language, runtime and library instead.
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

// clients is the registry: one line per path.
var clients = map[string]Client{
	"clickhouse-go-row":        {Open: openV2Row, MinServer: minV2, Streams: true, NoDelay: true, Module: modV2, RoundTrip: roundTripV2Row, DSN: ch.HonoursV2},
	"clickhouse-go-column":     {Open: openV2Column, MinServer: minV2, Streams: true, NoDelay: true, Module: modV2, RoundTrip: roundTripV2Column, DSN: ch.HonoursV2},
	"ch-go":                    {Open: openCHGo, MinServer: minCHGo, Streams: true, NoDelay: true, Module: modCHGo, RoundTrip: roundTripCHGo, DSN: ch.HonoursCHGo},
	"database-sql":             {Open: openSQL, MinServer: minV2, NoDelay: true, Module: modV2, RoundTrip: roundTripV2Row, DSN: ch.HonoursV2},
	"sqlx":                     {Open: openSQLX, MinServer: minV2, NoDelay: true, Module: modSQLX, RoundTrip: roundTripV2Row, DSN: ch.HonoursV2},
	"gorm":                     {Open: openGorm, MinServer: minV2, NoDelay: true, Module: modGorm, RoundTrip: roundTripGorm, DSN: ch.HonoursV2},
	"clickhouse-go-v1":         {Open: openV1, MinServer: minV1, NoDelay: true, Module: modV1, RoundTrip: roundTripV1Row, DSN: ch.HonoursV1},
	"sqlx-v1":                  {Open: openSQLXV1, MinServer: minV1, NoDelay: true, Module: modSQLX, RoundTrip: roundTripV1Row, DSN: ch.HonoursV1},
	"clickhouse-go-v1-column":  {Open: openV1Column, MinServer: minV1, Streams: true, NoDelay: true, Module: modV1, RoundTrip: roundTripV1Column, DSN: ch.HonoursV1},
	"php-seasclick":            {Open: openExternal, DSN: ch.HonoursWorker, External: ch.SeasClick.With("--api=insert")},
	"php-seasclick-block":      {Open: openExternal, Streams: true, DSN: ch.HonoursWorker, External: ch.SeasClick.With("--api=block")},
	"python-clickhouse-driver": {Open: openExternal, NoDelay: true, DSN: ch.HonoursWorker, External: ch.ClickHouseDriver.With()},
	"worker":                   {Open: openExternal, Streams: true, NoDelay: true, DSN: ch.HonoursWorker, External: &ch.Worker{}},
}

// Module paths, as `dbmeter version` and the result's env list them.
const (
	modV2   = "github.com/ClickHouse/clickhouse-go/v2"
	modV1   = "github.com/ClickHouse/clickhouse-go"
	modCHGo = "github.com/ClickHouse/ch-go"
	modSQLX = "github.com/jmoiron/sqlx"
	modGorm = "gorm.io/driver/clickhouse"
)

// Names lists the registered paths, sorted.
func Names() []string {
	out := make([]string, 0, len(clients))
	for n := range clients {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Lookup returns the named path, or an error listing the known ones.
func Lookup(name string) (Client, error) {
	c, ok := clients[name]
	if !ok {
		return Client{}, fmt.Errorf("unknown client %q: known clients are %s", name, strings.Join(Names(), ", "))
	}
	return c, nil
}
