package pg

import (
	"fmt"
	"sort"
	"strings"
)

// drivers is every Go client dbmeter can benchmark PostgreSQL through. A new
// driver is one file and one line here; the conformance test covers it.
func drivers() map[string]Driver {
	return map[string]Driver{
		"pgx":        DriverFunc(openPgx),
		"pgx-stdlib": DriverFunc(openPgxStdlib),
		"pq":         DriverFunc(openPQ),
	}
}

// DriverNames lists the registered drivers.
func DriverNames() []string {
	var names []string
	for n := range drivers() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LookupDriver returns the driver called name.
func LookupDriver(name string) (Driver, error) {
	d, ok := drivers()[name]
	if !ok {
		return nil, fmt.Errorf("unknown driver %q (drivers: %s)", name, strings.Join(DriverNames(), ", "))
	}
	return d, nil
}
