// Package driver is how dbmeter talks to PostgreSQL during a benchmark: a
// Driver opens Sessions, one per pgbench client, in one of pgbench's query
// modes (simple, extended, prepared), through one Go client. The registry
// in drivers.go lists every driver; the conformance test ranges over it.
// Adding a driver is one file here and one line in drivers().
//
// Classify sorts the errors the drivers return into the load engine's
// kinds.
package driver
