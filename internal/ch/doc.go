// Package ch holds what every ClickHouse client path shares: the DSN in the
// forms users bring, server versions and the gate that refuses a client too
// new for the server. The insert and query workloads live in sub-packages.
package ch
