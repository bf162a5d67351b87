package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A Table renders the runs of one family as text.
type Table func(w io.Writer, runs []result.Run) error

// familyTables holds the families whose runs read better in a layout of
// their own; the others get Generic. kv is one too, made in Text: its
// tables need the document's disk.
var familyTables = map[string]Table{
	"pg": pgTables,
	"ch": chTables,
}

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
	for _, family := range families(doc.Runs) {
		runs := runsOf(doc.Runs, family)
		table := familyTables[family]
		if family == "kv" {
			table = kvTables(e.Disk)
		}
		if table == nil {
			table = Generic
		}
		fmt.Fprintln(w)
		if err := table(w, runs); err != nil {
			return err
		}
	}
	if err := capacityText(w, doc); err != nil {
		return err
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

// Generic is the table for any family: one row per run.
func Generic(w io.Writer, runs []result.Run) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "family\ttarget\tworkload\tmode\tworkers\trate/s\trep\tops/s\tp50\tp90\tp99\tlag p99\tp99.9\tmax\tmean\terrors\tdropped\t")
	for _, r := range runs {
		rate := "-"
		if r.Mode == "open" {
			rate = Count(r.Rate)
		}
		l := r.Latency
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t\n",
			r.Family, r.Target, r.Workload, r.Mode, r.Workers, rate, r.Repeat, Count(r.OpsPerS),
			Nanos(l.P50), Nanos(l.P90), Nanos(l.P99), lagCell(&r), Nanos(l.P999), Nanos(l.Max), nanos(l.Mean), r.Errors, r.Dropped)
	}
	return tw.Flush()
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
