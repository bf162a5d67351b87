// Package kv benchmarks embedded key/value engines: a Store interface every
// engine provides, one file per engine, an explicit registry (engines.go),
// the workloads of the seed study (set, get, del, setmixed, getmixed) plus
// batchset, and the Matrix that runs engines × operations × fsync modes.
//
// Store methods take no context: embedded engines cannot cancel a call, as
// in pebble's bench.DB. Open takes one.
package kv
