package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/dbmeter/dbmeter/internal/result"
)

// StepLine is one capacity search step as it is judged: the offered rate,
// the latency the objective reads, drops, errors and the verdict.
func StepLine(r result.Run) string {
	v := "pass"
	if !r.Verdict.Pass {
		v = "FAIL: " + r.Verdict.Reason
	}
	kind := "step"
	if r.Verdict.Confirm {
		kind = "confirm"
	}
	l := r.Latency
	return fmt.Sprintf("%-7s %3d  %s/%s  %10s/s  p50 %8s  p99 %8s  p99.9 %8s  dropped %d  errors %d  %s",
		kind, r.Step, r.Target, r.Workload, Count(r.Rate), Nanos(l.P50), Nanos(l.P99), Nanos(l.P999), r.Dropped, r.Errors, v)
}

// CapacityLine is a search's answer in one line.
func CapacityLine(c result.Capacity) string {
	if c.Limit == "none" {
		return fmt.Sprintf("capacity %s/%s: no rate tried met %s (the lowest tried, %s/s, failed)", c.Target, c.Workload, c.SLO, Count(c.FirstFailingRate))
	}
	line := fmt.Sprintf("capacity %s/%s: %s/s under %s (first failing rate %s/s, %d steps)",
		c.Target, c.Workload, Count(c.MaxRate), c.SLO, Count(c.FirstFailingRate), len(c.Steps))
	switch c.Limit {
	case "max-in-flight":
		line += "; bounded by --max-in-flight: raise it if the target takes more concurrent operations"
	case "client":
		line += "; bounded by dbmeter itself (its CPU or schedule lag): this is not the target's capacity"
	}
	return line
}

// capacityGrid ranks the configurations searched by their answer.
func capacityGrid(doc *result.Document) (Grid, bool) {
	if len(doc.Capacity) == 0 {
		return Grid{}, false
	}
	cs := slices.Clone(doc.Capacity)
	slices.SortStableFunc(cs, func(a, b result.Capacity) int { return cmp.Compare(b.MaxRate, a.MaxRate) })
	differ := differingParams(cs)
	g := Grid{Title: "capacity: highest rate meeting the objective", Labels: 2 + len(differ),
		Header: append(append([]string{"target", "workload"}, differ...), "slo", "max rate/s", "first failing/s", "steps", "bounded by")}
	for _, c := range cs {
		row := []string{c.Target, c.Workload}
		for _, k := range differ {
			row = append(row, c.Params[k])
		}
		row = append(row, c.SLO, Count(c.MaxRate), Count(c.FirstFailingRate), fmt.Sprint(len(c.Steps)), c.Limit)
		g.Rows = append(g.Rows, row)
	}
	return g, true
}

// differingParams are the params whose values differ between the
// configurations (a --matrix's knobs), rate aside.
func differingParams(cs []result.Capacity) []string {
	var out []string
	for k, v := range cs[0].Params {
		if k == "rate" {
			continue
		}
		for _, c := range cs[1:] {
			if c.Params[k] != v {
				out = append(out, k)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

func capacityText(w io.Writer, doc *result.Document) error {
	g, ok := capacityGrid(doc)
	if !ok {
		return nil
	}
	fmt.Fprintf(w, "\n%s\n", g.Title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(g.Header, "\t")+"\t")
	for _, r := range g.Rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	return tw.Flush()
}
