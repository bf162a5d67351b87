package merge

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// Extra figures are family-specific and named with their unit; how one
// merges is read from its name, checked in this order:
//
//   - a percentile (p50, p90, p99, p999 in the name): cannot be merged from
//     summaries; kept when every shard has the same value, else left out;
//   - *max*, *min*: the highest, the lowest;
//   - *_stddev: pooled with the matching *_mean, weighted as the mean;
//   - counts and rates (*_ops, *_errors, *_s, reconnects, rows_counted,
//     rows_acknowledged, rows_uncertain, connections and connection
//     counters): summed, as shards add work;
//   - means and per-unit costs (*_mean, *_per_row, *_per_op, *_per_key,
//     *_ns): averaged, weighted by each shard's P_ops when there is one for
//     the figure's prefix P, by rows for *_per_row, else by operations;
//   - anything else: kept when equal across shards, else left out.
//
// Every figure left out is named in a warning.

var percentileName = regexp.MustCompile(`(^|_)p\d+(_|$)`)

var summed = map[string]bool{"reconnects": true, "rows_counted": true, "rows_acknowledged": true, "rows_uncertain": true,
	"conns_opened": true, "conns_closed": true, "conn_setup_ns_total": true, "connections": true,
	"workers_started": true, "worker_failures": true}

func mergeExtra(rs []*run) (map[string]float64, []string) {
	names := map[string]bool{}
	for _, r := range rs {
		for k := range r.Extra {
			names[k] = true
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	out := map[string]float64{}
	var left []string
	for _, k := range sortedKeys(names) {
		vals := make([]float64, len(rs))
		present := 0
		for i, r := range rs {
			if v, ok := r.Extra[k]; ok {
				vals[i] = v
				present++
			}
		}
		switch {
		case present < len(rs) && !isSum(k):
			left = append(left, k)
		case percentileName.MatchString(k):
			if v, ok := allEqual(vals); ok {
				out[k] = v
			} else {
				left = append(left, k)
			}
		case strings.Contains(k, "max"):
			out[k] = slicesMax(vals)
		case strings.Contains(k, "min"):
			out[k] = slicesMin(vals)
		case strings.HasSuffix(k, "_stddev"):
			mean := strings.TrimSuffix(k, "_stddev") + "_mean"
			v, ok := pooledStddev(rs, k, mean)
			if !ok {
				left = append(left, k)
				continue
			}
			out[k] = v
		case isSum(k):
			var sum float64
			for _, v := range vals {
				sum += v
			}
			out[k] = sum
		case isMean(k):
			out[k] = weightedMean(rs, k)
		default:
			if v, ok := allEqual(vals); ok {
				out[k] = v
			} else {
				left = append(left, k)
			}
		}
	}
	if len(left) == 0 {
		return out, nil
	}
	return out, []string{fmt.Sprintf("extra figures %s differ between shards and cannot be merged from their values; left out", joinNames(left))}
}

func isSum(k string) bool {
	return summed[k] || strings.HasSuffix(k, "_ops") || strings.HasSuffix(k, "_errors") || strings.HasSuffix(k, "_s")
}

func isMean(k string) bool {
	for _, s := range []string{"_mean", "_per_row", "_per_op", "_per_key", "_ns"} {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

// weight is what run r's value of figure k stands for.
func weight(r *run, k string) float64 {
	if strings.HasSuffix(k, "_per_row") {
		return float64(r.Rows)
	}
	// The longest prefix P of k with a P_ops figure: "select_latency_ns_mean"
	// is weighted by "select_ops".
	for p := k; ; {
		i := strings.LastIndexByte(p, '_')
		if i <= 0 {
			break
		}
		p = p[:i]
		if n, ok := r.Extra[p+"_ops"]; ok {
			return n
		}
	}
	return float64(r.Ops)
}

func weightedMean(rs []*run, k string) float64 {
	var sum, n float64
	for _, r := range rs {
		w := weight(r, k)
		sum += w * r.Extra[k]
		n += w
	}
	if n == 0 {
		return 0
	}
	return sum / n
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
		w := weight(r, meanKey)
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
