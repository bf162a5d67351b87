// Package metrics exposes a run's live figures to Prometheus: operation,
// row, byte, error and drop counters and latency histograms labelled by
// family, target, workload and operation, fed from the load runner's
// interval ticks. Every operation in a run's result passes through exactly
// one tick, so a histogram's count at the end of a run equals the ops the
// result reports.
//
// Nothing here is global: each Metrics has its own registry, and the
// HTTP server is started and stopped by its owner.
package metrics
