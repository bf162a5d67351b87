package merge

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// runKey identifies what a run of doc measured: family, target,
// workload, the repetition, and every param but those that only observed
// it (result.Document.Unobserved), a step of a stepped run among them.
func runKey(doc *document, r *run) string {
	params := doc.Unobserved(&r.Run)
	keys := slices.Sorted(maps.Keys(params))
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%s\x00%s\x00%d", r.Family, r.Target, r.Workload, r.Repeat)
	for _, k := range keys {
		fmt.Fprintf(&b, "\x00%s=%s", k, params[k])
	}
	return b.String()
}

// label names a run in messages.
func label(r *run) string {
	return fmt.Sprintf("%s/%s/%s #%d", r.Family, r.Target, r.Workload, r.Repeat)
}

// groups returns, for each run of the first shard, the matching run of
// every shard, in shard order. Runs match by runKey (the k-th run with a
// key matches the k-th with the same key); when the keys do not pair every
// run up, they match by position if every shard has as many runs with the
// same family, target and workload at each place.
func groups(ins []Input) ([][]*run, error) {
	if g, ok := byKey(ins); ok {
		return g, nil
	}
	first := ins[0].doc.Runs
	out := grid(len(first), len(ins))
	for s, in := range ins {
		if len(in.doc.Runs) != len(first) {
			return nil, fmt.Errorf("%s: %d runs, but %s has %d: the shards did not run the same test", in.Name, len(in.doc.Runs), ins[0].Name, len(first))
		}
		for i := range in.doc.Runs {
			r := &in.doc.Runs[i]
			f := &first[i]
			if r.Family != f.Family || r.Target != f.Target || r.Workload != f.Workload {
				return nil, fmt.Errorf("%s: run %d is %s, but in %s it is %s: the shards did not run the same test", in.Name, i+1, label(r), ins[0].Name, label(f))
			}
			out[i][s] = r
		}
	}
	return out, nil
}

func byKey(ins []Input) ([][]*run, bool) {
	first := ins[0].doc.Runs
	out := grid(len(first), len(ins))
	for s, in := range ins {
		if len(in.doc.Runs) != len(first) {
			return nil, false
		}
		idx := map[string][]int{}
		for i := range in.doc.Runs {
			k := runKey(in.doc, &in.doc.Runs[i])
			idx[k] = append(idx[k], i)
		}
		for i := range first {
			k := runKey(ins[0].doc, &first[i])
			if len(idx[k]) == 0 {
				return nil, false
			}
			out[i][s] = &in.doc.Runs[idx[k][0]]
			idx[k] = idx[k][1:]
		}
	}
	return out, true
}

// grid is the runs of each place (one per run of a shard) × shard.
func grid(runs, shards int) [][]*run {
	out := make([][]*run, runs)
	for i := range out {
		out[i] = make([]*run, shards)
	}
	return out
}
