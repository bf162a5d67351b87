// Package server is a PostgreSQL server as dbmeter reaches it outside the
// measured transactions: connection settings and DSNs, the administrative
// connection and its one-line errors, and the pgbench tables on the server
// (which exist, which are dbmeter's, the scale, the vacuum pgbench runs
// before a benchmark).
package server
