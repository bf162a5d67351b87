package driver

import "github.com/dbmeter/dbmeter/internal/registry"

// drivers is every Go client dbmeter can benchmark PostgreSQL through,
// sorted by name. A new driver is one file and one line here; the
// conformance test covers it.
func drivers() registry.Registry[Driver] {
	return registry.New("driver", []registry.Entry[Driver]{
		{Name: "pgx", Modules: []string{"github.com/jackc/pgx/v5"}, Value: openPgx(native)},
		{Name: "pgx-stdlib", Modules: []string{"github.com/jackc/pgx/v5"}, Value: openPgx(throughSQL)},
		{Name: "pq", Modules: []string{"github.com/lib/pq"}, Value: DriverFunc(openPQ)},
	})
}

// Names lists the registered drivers, sorted.
func Names() []string { return drivers().Names() }

// Modules lists the Go modules of the registered drivers.
func Modules() []string { return drivers().Modules() }

// Lookup returns the driver called name, or an error suggesting the
// closest one and listing them all.
func Lookup(name string) (Driver, error) { return drivers().Lookup(name) }
