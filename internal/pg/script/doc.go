// Package script parses pgbench transaction scripts and evaluates their
// \set expressions.
//
// It accepts the subset of pgbench's script language that benchmarks
// commonly use: SQL commands ended by ';' (BEGIN and END included), with
// :name variable references, and \set NAME EXPR where EXPR is integer and
// double arithmetic (+ - * / %, unary minus, parentheses) over numbers,
// :variables, random(lo, hi) and random_zipfian(lo, hi, s). Everything else
// (other meta-commands, other functions) is rejected with its line number,
// so a script never half-runs.
//
// A parsed Script is immutable and may be shared; each client keeps its own
// variable values in a Vars made by Script.NewVars.
package script
