// Package engine is the embedded key/value engines dbmeter kv measures: a
// Store interface every engine provides, one file per engine, an explicit
// registry (engines.go) with each engine's durable-write switch and knobs,
// and settling (an LSM tree flushed and compacted before a cell). Adding
// an engine is one file here and one line in engines(); the conformance
// suite (package kvtest) runs it.
//
// Store methods take no context: embedded engines cannot cancel a call, as
// in pebble's bench.DB. Open takes one.
package engine
