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
func kvSizes(p map[string]string, rows []string) string {
	var out []string
	if !slices.ContainsFunc(rows, kvIsYCSB) || slices.ContainsFunc(rows, func(op string) bool { return !kvIsYCSB(op) }) {
		out = append(out, fmt.Sprintf("key %sB value %sB", p["key-size"], p["value-size"]))
	}
	if slices.ContainsFunc(rows, kvIsYCSB) {
		dist := "each workload's distribution"
		if d := p["distribution"]; d != "" {
			dist = d + " for every workload"
		}
		out = append(out, fmt.Sprintf("YCSB %s records of %s × %sB, %s keys, %s", kvCount(p["keys"]), p["field-count"], p["field-length"], p["insert-order"], dist))
	}
	return strings.Join(out, "  ·  ")
}
