// Package bench is pgbench's client side: a Bench turns parsed scripts
// (package script) into load.Workers, one pgbench client each, running one
// transaction per operation through a driver session, with pgbench's
// retries, aborts, -l transaction log and -r per-command figures; Describe
// adds to a run what pgbench reports beyond the load engine's figures.
package bench
