// Package load drives workers against a target and measures them: closed loop
// (N workers back to back) or open loop (arrivals at a fixed rate, each timed
// from its intended start so that a stalled target shows in the percentiles).
//
// Run knows nothing of databases. A family hands it a NewWorker function and
// the names of its operations; each Worker.Do performs one operation and says
// which it was. Run owns the clock, the schedule, warm-up, stop rules,
// histograms, intervals and the client's own CPU and allocation cost.
package load
