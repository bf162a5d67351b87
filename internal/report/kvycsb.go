package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// YCSB cells in the kv tables: ycsb-a … ycsb-f are the whole mix, and
// ycsb-a/read and the like its operations, each a row.

func kvIsYCSB(op string) bool { return strings.HasPrefix(op, "ycsb-") }

// kvNotSupported reports whether r is a cell the engine cannot run (map has
// no ordered iteration for ycsb-e's scans).
func kvNotSupported(r result.Run) bool { return r.Extra["not_supported"] == 1 }

// kvHeaderRun is the run whose params describe the table: one that ran for
// the window with its warm-up (not del's rounds, which have none, nor
// ycsb-load's fixed count), and that the engine could run.
func kvHeaderRun(runs []result.Run) result.Run {
	for _, r := range runs {
		if r.Workload != "del" && r.Workload != "ycsb-load" && !kvNotSupported(r) {
			return r
		}
	}
	return runs[0]
}

// kvSizes describes what the rows read and write: the seed's keys and
// values, YCSB's records, or both.
func kvSizes(r *result.Run, rows []string) string {
	p := func(name string) string { v, _ := r.Setting(name); return v }
	var out []string
	if !slices.ContainsFunc(rows, kvIsYCSB) || slices.ContainsFunc(rows, func(op string) bool { return !kvIsYCSB(op) }) {
		out = append(out, fmt.Sprintf("key %sB value %sB", p(result.SettingKeySize), p(result.SettingValueSize)))
	}
	if slices.ContainsFunc(rows, kvIsYCSB) {
		dist := "each workload's distribution"
		if d := p(result.SettingDistribution); d != "" {
			dist = d + " for every workload"
		}
		out = append(out, fmt.Sprintf("YCSB %s records of %s × %sB, %s keys, %s", kvCount(p(result.SettingKeys)), p(result.SettingFieldCount), p(result.SettingFieldLength), p(result.SettingInsertOrder), dist))
	}
	return strings.Join(out, "  ·  ")
}
