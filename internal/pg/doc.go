// Package pg is dbmeter's PostgreSQL family: a pgbench-compatible TPC-B
// benchmark run through several Go drivers against one or more servers.
//
// This package is the command: Command is pgbench's command line as data,
// checked once (Validate), prepared (servers, scripts, seed, the variants
// of the -c and -j lists, the shard) and turned into a plan.Plan whose
// steps each run one server, driver and variant. The jobs it puts together
// live below it: bench (the clients and their transactions), driver (the
// Go drivers and their registry), initdb (-i), server (connections and the
// pgbench tables), serverstats (the server's own figures) and script
// (pgbench's script language).
package pg
