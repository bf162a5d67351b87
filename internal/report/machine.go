package report

import (
	"fmt"
	"io"

	"github.com/dbmeter/dbmeter/internal/result"
)

// MachineLines are the lines every rendering of a document prints under its
// environment about the machine it ran on: that it was busy, that its
// reference drifted during the run. None for a quiet, steady machine.
func MachineLines(doc *result.Document) []string {
	m := doc.Machine
	if m == nil {
		return nil
	}
	var out []string
	if l := m.BusyLine(); l != "" {
		out = append(out, l)
	}
	if l := m.Reference.DriftLine(); l != "" {
		out = append(out, l)
	}
	return out
}

// throughputRatio is the ratio of the groups' median throughputs, new over
// base (rows/s where the runs count rows), for telling whether the figures
// moved with the machine; none when either is zero.
func throughputRatio(base, new []*result.Run) []float64 {
	get := func(r *result.Run) float64 { return r.OpsPerS }
	if base[0].RowsPerS > 0 {
		get = func(r *result.Run) float64 { return r.RowsPerS }
	}
	b, n := median(values(base, get)), median(values(new, get))
	if b <= 0 || n <= 0 {
		return nil
	}
	return []float64{n / b}
}

// machineCauses says how much of the differences the machines explain.
func machineCauses(w io.Writer, base, new *result.Document, speedups []float64) {
	lines := result.MachineExplains(base, new, speedups)
	if len(lines) > 0 {
		fmt.Fprintln(w)
	}
	for _, l := range lines {
		fmt.Fprintln(w, "machine: "+l)
	}
}
