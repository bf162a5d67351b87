package report

import (
	"fmt"
	"io"
	"strings"
)

// A Grid is a titled table of formatted cells. It is the one form of every
// table: the terminal, Markdown and HTML reports each render the same
// grids (textGrid, mdTable, the page template), so a mark, a row, a column
// or a warning added to a grid shows in all three. pgbench's own summary
// block is the one exception: it copies pgbench's text.
type Grid struct {
	Title string
	// Lines say what the table is of (settings, the disk under it), above
	// it.
	Lines  []string
	Header []string
	Rows   [][]string
	Note   string
	// Warnings are what a reader must not miss in the table's figures,
	// said below it.
	Warnings []string
	Labels   int // the leading columns that hold names, not figures (at least 1)
}

// A column is one column of a one-row-per-run grid: adding one to a
// table's list is all it takes to show it in every format.
type column struct {
	head string
	cell func(e entry) string
}

// columnsGrid lays out es one per row, a cell per column.
func columnsGrid(title string, labels int, cols []column, es []entry) Grid {
	g := Grid{Title: title, Labels: labels}
	for _, c := range cols {
		g.Header = append(g.Header, c.head)
	}
	for _, e := range es {
		row := make([]string, len(cols))
		for i, c := range cols {
			row[i] = c.cell(e)
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// textGrid renders a grid for the terminal: the title and its lines, the
// table aligned in columns (names left, figures right), the note and the
// warnings.
func textGrid(w io.Writer, g Grid) error {
	fmt.Fprintln(w, g.Title)
	for _, l := range g.Lines {
		fmt.Fprintln(w, l)
	}
	if len(g.Header) == 0 {
		// A table of lines only: every run lacked the figures, for the
		// reasons the lines give.
		return nil
	}
	fmt.Fprintln(w)
	return textTable(w, g)
}

// GridText writes a grid's table for the terminal without its title and
// lines (names left, figures right), then its note and warnings: for a
// table a caller heads itself.
func GridText(w io.Writer, g Grid) error {
	return textTable(w, g)
}

// textTable is the aligned table of a grid, its note and warnings.
func textTable(w io.Writer, g Grid) error {
	labels := max(g.Labels, 1)
	widths := make([]int, len(g.Header))
	for _, r := range append([][]string{g.Header}, g.Rows...) {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], len([]rune(c)))
			}
		}
	}
	line := func(cells []string) {
		out := make([]string, len(cells))
		for i, c := range cells {
			pad := ""
			if i < len(widths) {
				pad = strings.Repeat(" ", max(widths[i]-len([]rune(c)), 0))
			}
			if i < labels {
				out[i] = c + pad
			} else {
				out[i] = pad + c
			}
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(out, "  "), " "))
	}
	line(g.Header)
	for _, r := range g.Rows {
		line(r)
	}
	if g.Note != "" {
		fmt.Fprintln(w, g.Note)
	}
	for _, warn := range g.Warnings {
		if _, err := fmt.Fprintln(w, "WARNING: "+warn); err != nil {
			return err
		}
	}
	return nil
}
