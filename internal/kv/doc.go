// Package kv benchmarks embedded key/value engines: the Matrix that runs
// engines × operations × fsync modes, each cell on a store of its own
// copied from a preloaded, settled template, with the costs of each cell
// (bytes written, space, peak RSS) beside its latencies. The engines are
// in package engine, the seed's operations in package workload and YCSB's
// in package kvycsb.
package kv
