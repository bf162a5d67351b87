// Package ycsb is YCSB's core workload (site.ycsb.workloads.CoreWorkload)
// ported from the Java reference: the key choosers (scrambled zipfian with
// its precomputed zeta over 10^10 items, latest, uniform, hotspot), the
// FNV-64 key names, the records and the definitions of workloads A–F. It
// draws from the caller's *rand.Rand, so a seeded stream repeats a run. It
// knows nothing of stores: internal/kv runs the workloads.
package ycsb
