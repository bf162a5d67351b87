package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A figure resting on too few operations is marked, not hidden: a p99 of
// 14 operations is their maximum, and a throughput of a few blocks per
// worker moves in steps of one block.
const (
	// lowMark follows a figure from too few operations.
	lowMark = "†"
	// fewPerWorker is the operations per worker (all repetitions
	// together) below which a throughput is marked.
	fewPerWorker = 20
	// noOps is what a variant that completed no operation shows instead
	// of figures.
	noOps = "no operation completed"
)

// fewForPercentile says whether ops operations are too few for the q
// quantile (0.99 for p99): fewer than 1/(1−q), so that fewer than one
// operation lies above it and the figure is the maximum.
func fewForPercentile(q float64, ops int64) bool {
	return ops > 0 && float64(ops) < 1/(1-q)-1e-9
}

// fewForThroughput says whether a variant's throughput rests on fewer
// than fewPerWorker operations per worker, its repetitions together.
func fewForThroughput(reps []result.Run) bool {
	var ops int64
	for _, r := range reps {
		ops += r.Ops
	}
	return ops > 0 && ops < int64(fewPerWorker*max(reps[0].Workers, 1))
}

// percentileCell shows a latency percentile of a pooled run, marked when
// it rests on too few operations.
func percentileCell(q float64, ns int64, ops int64, m *marks) string {
	s := Nanos(ns)
	if fewForPercentile(q, ops) {
		s += lowMark
		m.few = true
	}
	return s
}

// empty says whether a variant completed no operation. A cell the engine
// does not support is not empty: it ran nothing by design, and a run with
// no measured time and no error (a document older than not_supported)
// measured nothing either; its warnings say why.
func empty(reps []result.Run) bool {
	for _, r := range reps {
		if r.Ops > 0 || kvNotSupported(r) || r.DurationS == 0 && r.Errors == 0 {
			return false
		}
	}
	return len(reps) > 0
}

// emptyReason says why a variant completed no operation, from what its
// repetitions recorded.
func emptyReason(reps []result.Run) string {
	var errs int64
	byKind := map[string]int64{}
	var window float64
	interrupted, abandoned := false, false
	for _, r := range reps {
		errs += r.Errors
		for k, n := range r.ErrorKinds {
			byKind[k] += n
		}
		window += r.DurationS
		interrupted = interrupted || r.Interrupted
		abandoned = abandoned || slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "abandoned") })
	}
	switch {
	case interrupted:
		return "interrupted before any operation finished"
	case abandoned:
		return "its operations outlasted the window and the grace after it and were abandoned: one takes longer than that"
	case byKind["unfinished"] > 0 && byKind["unfinished"] == errs:
		return fmt.Sprintf("%d operations were still running when the grace after the window ran out: one takes longer than the window and its grace", errs)
	case errs > 0:
		return fmt.Sprintf("all %d operations failed (%s)", errs, kinds(byKind))
	}
	return fmt.Sprintf("none finished in %.3gs of measured time and the grace after it: an operation takes longer than that (the notes say more)", window)
}

// marks records which marks a table gave, so that its note explains
// exactly those.
type marks struct{ spread, few, empty bool }

// note is the line under a table that explains its marks; "" when none
// was given.
func (m marks) note() string {
	var parts []string
	if m.few {
		parts = append(parts, fmt.Sprintf("%s: from too few operations (a percentile q from fewer than 1/(1−q): a p99 from under 100; a throughput from under %d per worker) — run longer or repeat more", lowMark, fewPerWorker))
	}
	if m.empty {
		parts = append(parts, noOps+": no figure at all (the notes say why)")
	}
	return strings.Join(parts, "; ")
}

// EmptyVariants names the variants of doc that completed no operation,
// with the reason: one line each, for the exit status.
func EmptyVariants(doc *result.Document) []string {
	srcs := []Source{{Doc: doc}}
	es := entriesOf(srcs)
	l := newLabeler(srcs, es)
	var out []string
	for _, v := range variantsOf(l, es) {
		if empty(v.reps) {
			out = append(out, fmt.Sprintf("%s %s: %s: %s", l.target(v.first), v.first.run.Workload, noOps, emptyReason(v.reps)))
		}
	}
	return out
}

// A variant is one configuration of a source's runs: its repetitions, in
// the order they ran, and them pooled.
type variant struct {
	first  entry
	reps   []result.Run
	pooled result.Run
}

// variantsOf groups es by target, workload and the params that split
// them (labeler.target), in first-seen order.
func variantsOf(l labeler, es []entry) []variant {
	var out []variant
	at := map[string]int{}
	for _, e := range es {
		k := fmt.Sprintf("%d\x00%s\x00%s", e.src, l.target(e), e.run.Workload)
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, variant{first: e})
		}
		out[i].reps = append(out[i].reps, *e.run)
	}
	for i := range out {
		out[i].pooled = pooledRun(out[i].reps)
	}
	return out
}
