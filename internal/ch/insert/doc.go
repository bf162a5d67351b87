// Package insert is the `ch insert` workload: it drives generated event
// blocks through each Go ClickHouse client's bulk-insert path, times the
// client-side build apart from the send, and reconciles the rows the server
// acknowledged with the rows the table holds afterwards.
//
// Each client path is one file and one line in the registry (clients.go).
// The registry also records the oldest server each path supports and which
// insert techniques (streaming several blocks through one INSERT, the
// TCP_NODELAY setting) it can honour.
package insert
