// Package script parses pgbench transaction scripts and evaluates their
// expressions exactly as pgbench 15 does.
//
// It reads pgbench's whole script language: SQL commands (ended by ';' or a
// meta-command, joined by \;), :name references, and the meta-commands
// \set, \if/\elif/\else/\endif, \sleep, \setshell, \shell, \gset, \aset,
// \startpipeline and \endpipeline. Expressions have pgbench's grammar,
// value types (integer, double, boolean, NULL), coercions, error messages
// and functions, and the random functions draw from pgbench's own
// generator (PRNG, seeded per client as pgbench seeds them: see NewSeeds),
// so the same --random-seed gives the same values. Errors pgbench finds
// while reading a script are found by Parse, with their line.
//
// A parsed Script is immutable and may be shared; each client keeps its own
// variable values in a Vars made by Script.NewVars. The scripts of one run
// share a namespace (ParseIn) as a pgbench client's scripts share its
// variables.
package script
