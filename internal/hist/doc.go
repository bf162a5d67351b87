// Package hist records operation latencies in HdrHistograms without storing
// samples, so a run's memory stays flat however long it lasts.
//
// A Recorder is shared by a few workers (a shard) and guarded by a mutex that
// is uncontended in the common case. The runner drains every Recorder into a
// Set once per interval: Drain swaps the recorder's live histograms with
// spares under the lock and merges outside it, so a worker never waits for a
// merge.
package hist
