package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// CSV writes one row per run of every source, for spreadsheets. Durations
// are in nanoseconds and rates per second, as in the result document; the
// family-specific extra figures and phases get a column each.
func CSV(w io.Writer, srcs []Source) error {
	es := entriesOf(srcs)
	extras, phases := extraKeys(es)
	header := []string{
		"source", "family", "target", "workload", "server", "mode", "workers", "rate", "repeat", "seed",
		"duration_s", "ops", "errors", "dropped", "throughput_ops_s", "rows_s", "bytes_s", "rows", "bytes",
		"latency_min_ns", "latency_mean_ns", "latency_stddev_ns", "latency_p50_ns", "latency_p90_ns",
		"latency_p99_ns", "latency_p999_ns", "latency_max_ns", "service_p50_ns", "service_p99_ns",
		"cpu_s", "cpu_ns_per_op", "allocs_per_op", "alloc_bytes_per_op", "cpu_util",
		"error_kinds", "warnings", "interrupted", "params",
	}
	for _, k := range extras {
		header = append(header, "extra_"+k)
	}
	for _, p := range phases {
		header = append(header, "phase_"+p+"_p50_ns", "phase_"+p+"_p99_ns")
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, e := range es {
		if err := cw.Write(csvRow(srcs[e.src].Name, e.run, extras, phases)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvRow(source string, r *result.Run, extras, phases []string) []string {
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	l := r.Latency
	row := []string{
		source, r.Family, r.Target, r.Workload, r.Server, r.Mode, strconv.Itoa(r.Workers), f(r.Rate), strconv.Itoa(r.Repeat),
		strconv.FormatUint(r.Seed, 10), f(r.DurationS), i(r.Ops), i(r.Errors), i(r.Dropped), f(r.OpsPerS), f(r.RowsPerS),
		f(r.BytesPerS), i(r.Rows), i(r.Bytes), i(l.Min), f(l.Mean), f(l.Stddev), i(l.P50), i(l.P90), i(l.P99), i(l.P999),
		i(l.Max), i(r.Service.P50), i(r.Service.P99), f(r.Client.CPUS), f(r.Client.CPUNsPerOp), f(r.Client.AllocsPerOp),
		f(r.Client.AllocBytesPer), f(r.Client.CPUUtil), pairs(r.ErrorKinds), strings.Join(r.Warnings, "; "),
		strconv.FormatBool(r.Interrupted), pairs(r.Params),
	}
	for _, k := range extras {
		if v, ok := r.Extra[k]; ok {
			row = append(row, f(v))
		} else {
			row = append(row, "")
		}
	}
	for _, p := range phases {
		if v, ok := r.Phases[p]; ok {
			row = append(row, i(v.P50), i(v.P99))
		} else {
			row = append(row, "", "")
		}
	}
	return row
}

func extraKeys(es []entry) (extras, phases []string) {
	ex, ph := map[string]bool{}, map[string]bool{}
	for _, e := range es {
		for k := range e.run.Extra {
			ex[k] = true
		}
		for k := range e.run.Phases {
			ph[k] = true
		}
	}
	return sortedKeys(ex), sortedKeys(ph)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// pairs formats a map as "k=v;k=v" in key order.
func pairs[V any](m map[string]V) string {
	parts := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, m[k]))
	}
	return strings.Join(parts, ";")
}
