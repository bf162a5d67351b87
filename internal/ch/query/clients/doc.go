// Package clients is the registry of `dbmeter ch query` client paths: one
// file per path and one line each in clients.go. The conformance test
// ranges over the registry, so a new path is tested as soon as its line
// exists.
//
// clickhouse-go v2's two paths live in package chv2.
package clients
