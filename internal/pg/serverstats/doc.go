// Package serverstats reads a PostgreSQL server's own figures for one run,
// beside the client's: pg_stat_statements and pg_stat_database deltas over
// the measured window and the run's backends' wait events, sampled from
// pg_stat_activity.
package serverstats
