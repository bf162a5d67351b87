// Package pg is dbmeter's PostgreSQL family: a pgbench-compatible TPC-B
// benchmark run through several Go drivers against one or more servers.
//
// A Driver opens Sessions, one per pgbench client, in one of pgbench's
// query modes (simple, extended, prepared). The registry in drivers.go
// lists every driver; the conformance test ranges over it. Bench turns
// parsed scripts (package script) into load.Workers, one transaction per
// operation. Init creates and loads the pgbench tables as pgbench -i does,
// marking them as dbmeter's so that dbmeter never drops tables it did not
// create.
package pg
