package merge

import (
	"fmt"
	"math"

	"github.com/dbmeter/dbmeter/internal/result"
)

// mergeExtra merges the shards' extra figures by the rule each figure's
// declaration gives (result.Figure). A figure is left out, named in a
// warning, when the shards declare it differently, when a shard lacks a
// figure that is not a sum (a sum counts a missing value as zero), or when
// shards disagree on a MergeEqual figure. A figure no shard declares (a
// document older than declarations) is merged as MergeEqual.
func mergeExtra(rs []*run) (map[string]float64, map[string]result.Figure, []string) {
	names := map[string]bool{}
	for _, r := range rs {
		for k := range r.Extra {
			names[k] = true
		}
	}
	if len(names) == 0 {
		return nil, nil, nil
	}
	out := map[string]float64{}
	decls := map[string]result.Figure{}
	var left, undeclared []string
	for _, k := range sortedKeys(names) {
		f, declared, agree := declaration(rs, k)
		if !agree {
			left = append(left, k+" (declared differently)")
			continue
		}
		if !declared {
			undeclared = append(undeclared, k)
		}
		vals := make([]float64, len(rs))
		present := 0
		for i, r := range rs {
			if v, ok := r.Extra[k]; ok {
				vals[i] = v
				present++
			}
		}
		if present < len(rs) && f.Merge != result.MergeSum {
			left = append(left, k+" (missing in a shard)")
			continue
		}
		v, ok := combine(rs, k, f, vals)
		if !ok {
			left = append(left, k)
			continue
		}
		out[k] = v
		if declared {
			decls[k] = f
		}
	}
	var warns []string
	if len(undeclared) > 0 {
		warns = append(warns, fmt.Sprintf("extra figures %s have no merge rule in the shards' documents (written before figures were declared); kept only where every shard agrees", joinNames(undeclared)))
	}
	if len(left) > 0 {
		warns = append(warns, fmt.Sprintf("extra figures %s cannot be merged from the shards' values; left out", joinNames(left)))
	}
	if len(decls) == 0 {
		decls = nil
	}
	return out, decls, warns
}

// declaration is figure k's declaration in the shards that declare it:
// declared says whether any does, agree whether they all say the same.
func declaration(rs []*run, k string) (f result.Figure, declared, agree bool) {
	for _, r := range rs {
		d, ok := r.Figures[k]
		if !ok {
			continue
		}
		if declared && d != f {
			return f, true, false
		}
		f, declared = d, true
	}
	if !declared {
		f = result.Equal("")
	}
	return f, declared, true
}

// combine merges the values vals of figure k, declared as f.
func combine(rs []*run, k string, f result.Figure, vals []float64) (float64, bool) {
	switch f.Merge {
	case result.MergeSum:
		var sum float64
		for _, v := range vals {
			sum += v
		}
		return sum, true
	case result.MergeMean:
		var sum, n float64
		for _, r := range rs {
			w := weight(r, f.Of)
			sum += w * r.Extra[k]
			n += w
		}
		if n == 0 {
			return 0, true
		}
		return sum / n, true
	case result.MergeMax:
		return slicesMax(vals), true
	case result.MergeMin:
		return slicesMin(vals), true
	case result.MergeStddev:
		return pooledStddev(rs, k, f.Of)
	default: // MergeEqual, and a rule this dbmeter does not know
		return allEqual(vals)
	}
}

// weight is what a run's value of a mean stands for: its operations, its
// rows, or the value of another of its figures.
func weight(r *run, of string) float64 {
	switch of {
	case "", "ops":
		return float64(r.Ops)
	case "rows":
		return float64(r.Rows)
	}
	return r.Extra[of]
}

// pooledStddev is the standard deviation of the union of the shards'
// values, from each shard's count, mean and standard deviation.
func pooledStddev(rs []*run, k, meanKey string) (float64, bool) {
	var n, sum, sq float64
	for _, r := range rs {
		sd, ok1 := r.Extra[k]
		mu, ok2 := r.Extra[meanKey]
		if !ok1 || !ok2 {
			return 0, false
		}
		w := weight(r, r.Figures[meanKey].Of)
		n += w
		sum += w * mu
		sq += w * (sd*sd + mu*mu)
	}
	if n == 0 {
		return 0, true
	}
	mean := sum / n
	return math.Sqrt(max(sq/n-mean*mean, 0)), true
}

func allEqual(vals []float64) (float64, bool) {
	for _, v := range vals[1:] {
		if v != vals[0] {
			return 0, false
		}
	}
	return vals[0], true
}

func slicesMax(vals []float64) float64 {
	m := vals[0]
	for _, v := range vals[1:] {
		m = max(m, v)
	}
	return m
}

func slicesMin(vals []float64) float64 {
	m := vals[0]
	for _, v := range vals[1:] {
		m = min(m, v)
	}
	return m
}
