// Package initdb is pgbench -i: it creates and loads the pgbench tables,
// with pgbench's steps, partitions, fill factor and tablespaces, marking
// them as dbmeter's so that dbmeter never drops or reloads tables it did
// not create.
package initdb
