package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Text writes the document as a person reads it on a terminal: the
// environment in one line, each family's table, then warnings and errors.
func Text(w io.Writer, doc *result.Document) error {
	e := doc.Env
	fmt.Fprintf(w, "dbmeter %s  %s  %d CPUs (GOMAXPROCS %d)  %s  %s  %s\n",
		doc.Tool.Version, e.CPUModel, e.CPUs, e.GOMAXPROCS, Bytes(float64(e.MemBytes)), e.Kernel, e.Go)
	if doc.Interrupted {
		fmt.Fprintln(w, "INTERRUPTED: the runs below are partial")
	}
	for _, l := range MachineLines(doc) {
		fmt.Fprintln(w, l)
	}
	srcs := []Source{{Doc: doc}}
	l, es := sourceEntries(srcs, 0)
	for _, family := range families(doc.Runs) {
		fmt.Fprintln(w)
		if family == "pg" {
			// pgbench's own summary, as a pgbench user knows it, then the
			// runs side by side when there are several.
			// With repetitions, only the table: a block per repetition
			// would bury the pooled figures.
			runs := runsOf(doc.Runs, family)
			if !slices.ContainsFunc(runs, func(r result.Run) bool { return r.Repeat > 1 }) {
				if err := pgSummaries(w, runs); err != nil {
					return err
				}
				if len(runs) < 2 {
					continue
				}
				fmt.Fprintln(w)
			}
		}
		for i, g := range familyGrids(l, family, es, e.Disk) {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := textGrid(w, g); err != nil {
				return err
			}
		}
	}
	// The same grids as Tables, in its order: one renderer per table.
	if g, ok := serverStatsGrid(l, es); ok {
		fmt.Fprintln(w)
		if err := textGrid(w, g); err != nil {
			return err
		}
	}
	if g, ok := capacityGrid(doc); ok {
		fmt.Fprintln(w)
		if err := textGrid(w, g); err != nil {
			return err
		}
	}
	return notes(w, doc)
}

func families(runs []result.Run) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range runs {
		if !seen[r.Family] {
			seen[r.Family] = true
			out = append(out, r.Family)
		}
	}
	return out
}

func runsOf(runs []result.Run, family string) []result.Run {
	var out []result.Run
	for _, r := range runs {
		if r.Family == family {
			out = append(out, r)
		}
	}
	return out
}

// notes prints Notes after the tables.
func notes(w io.Writer, doc *result.Document) error {
	lines := Notes(doc)
	if len(lines) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, "note: "+l); err != nil {
			return err
		}
	}
	return nil
}

func kinds(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
