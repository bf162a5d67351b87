// Package merge combines the result documents of the shards of one
// benchmark (dbmeter ... --shard I/N on N machines) into the document the
// benchmark would have written on one machine. It merges exactly where the
// documents allow it: counts are summed and histograms added before any
// percentile is taken, never averaged. fields.go is the one place that
// knows the document fields merge reads beyond today's result package.
package merge
