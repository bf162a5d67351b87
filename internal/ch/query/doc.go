// Package query measures ClickHouse query latency through several Go client
// paths: each path is a Querier (one file per client, one line in the
// registry in clients.go), each query's result is drained in one decode mode
// (row or column), and the time spent decoding is measured apart from the
// time spent waiting for the server.
//
// A Querier owns a connection pool and is safe for concurrent use: the load
// engine's workers share one. Presets bring their own seeded data set
// (dataset.go) and draw each query's parameters from that data's real
// ranges (preset.go).
package query
