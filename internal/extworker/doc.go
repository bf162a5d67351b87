// Package extworker runs benchmark clients written in other languages
// under dbmeter's load model. A worker is a process dbmeter starts from a
// command line, one per connection, and talks to over its stdin and
// stdout: one JSON object per line each way (docs/worker-protocol.md).
//
// The package knows processes and the protocol, not databases: it starts a
// worker, checks its hello (protocol version, language, runtime, library),
// sends the family's setup, and exchanges one request and one reply per
// operation. A reply's error kind maps onto load's kinds; a worker that
// exits, hangs or breaks the protocol is killed and counted as an error,
// and the Pool starts another with back-off. Its stderr lines are kept,
// secrets masked, to explain what went wrong. The Pool also measures the
// round trip of an empty exchange with its workers before a run, so the
// protocol's own cost is reported beside the latency it is part of.
package extworker
