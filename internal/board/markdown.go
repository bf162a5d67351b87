package board

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the board's machines, reference, explanations,
// summary and claims as Markdown (the cells are in the HTML page).
func WriteMarkdown(w io.Writer, b *Board) {
	fmt.Fprintf(w, "# Study %s board: %d machines\n\n%s. dbmeter %s, the %s form, study file sha256 %.12s.\n\n", b.Study.ID, len(b.Machines), b.Study.Title, b.Version, form(b.Quick), b.Study.Hash)
	if b.Constrained != "" {
		fmt.Fprintf(w, "> %s\n\n", b.Constrained)
	}
	if b.Stale != "" {
		fmt.Fprintf(w, "Stale: %s\n\n", b.Stale)
	}
	for _, l := range append(append(append([]string{}, b.Refused...), b.Apart...), b.Notes...) {
		fmt.Fprintf(w, "- %s\n", l)
	}
	fmt.Fprintf(w, "\n## Machines\n\n| machine | CPU | cores | memory | storage | CPU loop | fsync cost | loopback RTT | timer |\n|---|---|---:|---:|---|---:|---:|---:|---:|\n")
	for i, m := range b.Machines {
		name := m.Name
		if i == b.Baseline {
			name += " (baseline)"
		}
		fmt.Fprintf(w, "| %s | %s | %d (GOMAXPROCS %d) | %s | %s | %s | %s | %s | %s |\n", name, m.Env.CPUModel, m.Env.CPUs, m.Env.GOMAXPROCS, bytesOf(m.Env.MemBytes),
			m.StorageClass, nanos(m.Ref[ProbeCPU]), nanos(m.Ref[ProbeFsync]), nanos(m.Ref[ProbeLoopback]), nanos(m.Ref["timer"]))
	}
	fmt.Fprintf(w, "\n## What the machine reference explains\n\n")
	for _, k := range b.Kinds {
		fmt.Fprintf(w, "- **%s**: %d of %d cells on every machine; %s.\n", k.Name, k.Common, k.Cells, k.SpreadLine())
		for i := range b.Machines {
			if s := k.Explanation(b, i); s != "" {
				fmt.Fprintf(w, "  - %s\n", s)
			}
		}
	}
	fmt.Fprintf(w, "\n## Summary per machine\n\nGeometric mean of the ratio to the best over the cells every machine has (%d ns added to each time per operation); the last column counts every cell, a missing one at %d× the cell's worst ratio.\n\n", RatioFloorNs, PenaltyFactor)
	for _, k := range b.Kinds {
		fmt.Fprintf(w, "### %s\n\n| machine | ratio to the best | normalised | missing | every cell, penalised |\n|---|---:|---:|---:|---:|\n", k.Name)
		for i, m := range b.Machines {
			r := k.Rows[i]
			fmt.Fprintf(w, "| %s | %s | %s | %d | %s |\n", m.Name, ratio(r.Geo), ratio(r.GeoNorm), r.Missing, ratio(r.Penalised))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "## Claims across machines\n\n| claim | held | did not hold | undecided | could not be checked |\n|---|---:|---:|---:|---:|\n")
	for _, c := range b.Claims {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d |\n", strings.ReplaceAll(c.Text, "|", "\\|"), c.Counts[Held], c.Counts[NotHeld], c.Counts[Undecided], c.Counts[NotChecked])
	}
}
